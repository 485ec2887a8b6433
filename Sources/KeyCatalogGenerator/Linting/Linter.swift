/// Runs every lint rule over a parsed manifest and returns all findings, sorted by position.
///
/// ```swift
/// let findings = Linter.lint(root, file: "keys.json")
/// ```
enum Linter {
    /// Every rule, in the order the documentation lists them.
    static let rules: [any LintRule] = [
        VersionRule(),
        DuplicateMemberRule(),
        UnknownFieldRule(),
        FieldTypeRule(),
        MissingFieldRule(),
        AccessLevelRule(),
        ImportRule(),
        IdentifierRule(),
        DuplicateNameRule(),
        CatalogMemberNameRule(),
        StoreKindRule(),
        StoreReferenceRule(),
        EnumShapeRule(),
        DuplicateEnumCaseRule(),
        TypeRule(),
        DefaultPresenceRule(),
        DefaultMismatchRule(),
        DefaultRoundTripRule(),
        EmptySwiftExpressionRule(),
        RepresentationRule(),
        EmptyStorageKeyRule(),
        StorageKeyCharacterRule(),
        DuplicateStorageKeyRule(),
        PlaceholderRule(),
        ParameterTypeRule(),
        UbiquitousLimitsRule(),
        UbiquitousMigrationRule(),
        ICloudSyncRule(),
        SecretStoreRule(),
        KeychainMoveRule(),
        MigrationTransformRule(),
        SelfMigrationRule(),
        SharedMigrationSourceRule(),
        KeyValueObservingRule(),
        OptionalDefaultRule(),
        SecretDefaultRule(),
        UnusedDeclarationRule(),
    ]

    /// Every finding for the manifest `root`. A manifest of an unsupported version gets only
    /// the version error: its fields may mean something else.
    static func lint(_ context: LintContext) -> [Diagnostic] {
        let version = VersionRule().check(context)
        if context.root["version"]?.number != nil, !version.isEmpty {
            return version
        }
        return rules.flatMap { $0.check(context) }.sortedByLocation()
    }
}
