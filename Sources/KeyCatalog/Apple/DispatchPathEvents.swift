#if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
import Dispatch
import Foundation

/// kqueue's events of opened files and folders, through dispatch sources of the file system: the
/// ``_PathEvents`` of Apple platforms, behind ``FileChangeMonitor``. One serial queue reports
/// every watch's events, one at a time.
struct _DispatchPathEvents: _PathEvents {
    private static let queue = DispatchQueue(label: "KeyCatalog.FileChangeMonitor")

    func watch(_ path: String, movesOnly: Bool, onEvent: @escaping @Sendable () -> Void) -> _PathEventWatch? {
        // Opened for events only: it keeps no volume from being unmounted.
        let descriptor = open(path, O_EVTONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard let file = FileSignature(descriptor: descriptor) else {
            close(descriptor)
            return nil
        }
        let moves: DispatchSource.FileSystemEvent = [.delete, .rename, .revoke]
        let source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: movesOnly ? moves : moves.union([.write, .extend]), queue: Self.queue)
        source.setEventHandler { onEvent() }
        // Closed once the source let go of it, as Dispatch asks.
        source.setCancelHandler { close(descriptor) }
        source.resume()
        // A dispatch source may be cancelled from any thread.
        let cancellable = _UncheckedSendable(source)
        return _PathEventWatch(file: file, cancel: { cancellable.value.cancel() })
    }
}
#endif
