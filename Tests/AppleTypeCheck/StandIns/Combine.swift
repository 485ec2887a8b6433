// Stand-in for Apple's Combine: the declarations KeyCatalog and its clients use, with the
// signatures of Apple's documentation (https://developer.apple.com/documentation/combine) and of
// Combine.swiftinterface. Combine is not annotated for Sendable: none of these types conforms
// to Sendable, and no closure parameter is @Sendable, exactly as in Apple's interface.
// Availability: macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0 for everything here.

// MARK: - Identity
/// https://developer.apple.com/documentation/combine/combineidentifier
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct CombineIdentifier: Hashable, CustomStringConvertible {
    public init() { fatalError("stand-in") }
    public init(_ obj: AnyObject) { fatalError("stand-in") }
    public var description: String { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/combine/customcombineidentifierconvertible
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol CustomCombineIdentifierConvertible {
    var combineIdentifier: CombineIdentifier { get }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { fatalError("stand-in") }
}

// MARK: - Cancellation
/// https://developer.apple.com/documentation/combine/cancellable
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Cancellable {
    func cancel()
}

/// https://developer.apple.com/documentation/combine/anycancellable
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final public class AnyCancellable: Cancellable, Hashable {
    public init(_ cancel: @escaping () -> Void) { fatalError("stand-in") }
    public init<C: Cancellable>(_ canceller: C) { fatalError("stand-in") }
    final public func cancel() { fatalError("stand-in") }
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { fatalError("stand-in") }
    final public func hash(into hasher: inout Hasher) { fatalError("stand-in") }
    final public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable { fatalError("stand-in") }
    final public func store(in set: inout Set<AnyCancellable>) { fatalError("stand-in") }
}

// MARK: - Subscribers
/// https://developer.apple.com/documentation/combine/subscribers
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Subscribers {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers {
    /// https://developer.apple.com/documentation/combine/subscribers/demand
    @frozen public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible {
        @usableFromInline internal let rawValue: UInt
        public static let unlimited = Demand(rawValue: .max)
        public static let none = Demand(rawValue: 0)
        @inlinable public static func max(_ value: Int) -> Subscribers.Demand { Demand(rawValue: UInt(value)) }
        public var max: Int? { fatalError("stand-in") }
        public var description: String { fatalError("stand-in") }
        @usableFromInline internal init(rawValue: UInt) { self.rawValue = rawValue }
        public static func < (lhs: Demand, rhs: Demand) -> Bool { fatalError("stand-in") }
        public static func + (lhs: Demand, rhs: Demand) -> Demand { fatalError("stand-in") }
        public static func += (lhs: inout Demand, rhs: Demand) { fatalError("stand-in") }
    }

    /// https://developer.apple.com/documentation/combine/subscribers/completion
    @frozen public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers.Completion: Equatable where Failure: Equatable {}
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers.Completion: Hashable where Failure: Hashable {}

/// https://developer.apple.com/documentation/combine/subscription
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

/// https://developer.apple.com/documentation/combine/subscriber
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error
    func receive(subscription: any Subscription)
    func receive(_ input: Self.Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Self.Failure>)
}

// MARK: - Publishers
/// https://developer.apple.com/documentation/combine/publisher
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
    func receive<S>(subscriber: S) where S: Subscriber, Self.Failure == S.Failure, Self.Output == S.Input
}

/// https://developer.apple.com/documentation/combine/publishers
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Publishers {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publishers {
    /// https://developer.apple.com/documentation/combine/publishers/handleevents
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public func receive<S>(subscriber: S) where S: Subscriber, Upstream.Failure == S.Failure, Upstream.Output == S.Input { fatalError("stand-in") }
    }

    /// https://developer.apple.com/documentation/combine/publishers/map
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let transform: (Upstream.Output) -> Output
        public func receive<S>(subscriber: S) where Output == S.Input, S: Subscriber, Upstream.Failure == S.Failure { fatalError("stand-in") }
    }

    /// https://developer.apple.com/documentation/combine/publishers/removeduplicates
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Upstream.Output, Upstream.Output) -> Bool
        public func receive<S>(subscriber: S) where S: Subscriber, Upstream.Failure == S.Failure, Upstream.Output == S.Input { fatalError("stand-in") }
    }
}

/// https://developer.apple.com/documentation/combine/anypublisher
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
    @usableFromInline internal let box: Any
    @inlinable public init<P>(_ publisher: P) where Output == P.Output, Failure == P.Failure, P: Publisher { box = publisher }
    public var description: String { fatalError("stand-in") }
    public var playgroundDescription: Any { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension AnyPublisher: Publisher {
    @inlinable public func receive<S>(subscriber: S) where Output == S.Input, Failure == S.Failure, S: Subscriber { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher {
    /// https://developer.apple.com/documentation/combine/publisher/erasetoanypublisher()
    @inlinable public func eraseToAnyPublisher() -> AnyPublisher<Self.Output, Self.Failure> { AnyPublisher(self) }

    /// https://developer.apple.com/documentation/combine/publisher/handleevents(receivesubscription:receiveoutput:receivecompletion:receivecancel:receiverequest:)
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Self.Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Self.Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/combine/publisher/sink(receivecompletion:receivevalue:)
    public func sink(
        receiveCompletion: @escaping ((Subscribers.Completion<Self.Failure>) -> Void),
        receiveValue: @escaping ((Self.Output) -> Void)
    ) -> AnyCancellable { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/combine/publisher/map(_:)-99evh
    public func map<T>(_ transform: @escaping (Self.Output) -> T) -> Publishers.Map<Self, T> { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/combine/publisher/removeduplicates(by:)
    public func removeDuplicates(by predicate: @escaping (Self.Output, Self.Output) -> Bool) -> Publishers.RemoveDuplicates<Self> { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher where Self.Failure == Never {
    /// https://developer.apple.com/documentation/combine/publisher/sink(receivevalue:)
    public func sink(receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher where Self.Output: Equatable {
    /// https://developer.apple.com/documentation/combine/publisher/removeduplicates()
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> { fatalError("stand-in") }
}

// MARK: - Subjects
/// https://developer.apple.com/documentation/combine/subject
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    func send(_ value: Self.Output)
    func send(completion: Subscribers.Completion<Self.Failure>)
    func send(subscription: any Subscription)
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subject where Self.Output == Void {
    public func send() { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/combine/currentvaluesubject
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final public class CurrentValueSubject<Output, Failure: Error>: Subject {
    final public var value: Output {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public init(_ value: Output) { fatalError("stand-in") }
    final public func send(subscription: any Subscription) { fatalError("stand-in") }
    final public func receive<S>(subscriber: S) where Output == S.Input, Failure == S.Failure, S: Subscriber { fatalError("stand-in") }
    final public func send(_ input: Output) { fatalError("stand-in") }
    final public func send(completion: Subscribers.Completion<Failure>) { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/combine/passthroughsubject
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final public class PassthroughSubject<Output, Failure: Error>: Subject {
    public init() { fatalError("stand-in") }
    final public func send(subscription: any Subscription) { fatalError("stand-in") }
    final public func receive<S>(subscriber: S) where Output == S.Input, Failure == S.Failure, S: Subscriber { fatalError("stand-in") }
    final public func send(_ input: Output) { fatalError("stand-in") }
    final public func send(completion: Subscribers.Completion<Failure>) { fatalError("stand-in") }
}
