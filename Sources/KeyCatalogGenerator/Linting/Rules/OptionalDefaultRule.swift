/// A warning for an optional key with a non-null default: writing `nil` removes the value, so the
/// key reads its default again and can never read `nil`.
///
/// ```json
/// { "name": "nickname", "type": "String?", "default": "Anonymous" }
/// // warning: key 'nickname' has optional type 'String?' but a non-null default, so setting nil restores the default and it never reads nil; make the type 'String' or the default null
/// ```
struct OptionalDefaultRule: LintRule {
    let id = "optional-default"
    let summary = "An optional key has a non-null default."

    func check(_ context: LintContext) -> [Diagnostic] {
        context.keys.compactMap { key in
            guard let type = key.validType, case .optional(let wrapped) = type else { return nil }
            let defaults = ["default", "releaseDefault"].compactMap { key.value.member($0) }
            guard let member = defaults.first(where: { !$0.value.isNull }) else { return nil }
            return warning("\(key.label) has optional type '\(type)' but a non-null default, so setting nil restores the default and it never reads nil; make the type '\(wrapped)' or the default null", at: member.value.location)
        }
    }
}
