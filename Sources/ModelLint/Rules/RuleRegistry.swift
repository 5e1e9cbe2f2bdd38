/// Every rule modellint has, in catalog order. Adding a rule is adding its type here.
public enum RuleRegistry {
    public static let all: [any Rule] = [
        // Bundle structure
        MalformedContentsRule(), MissingContentsRule(), LegacyModelFormatRule(), MissingCurrentVersionRule(),
        CurrentVersionNotFoundRule(), CurrentVersionNotLatestRule(),
        // A single model version
        RenamingIdentifierXMLAttributeRule(), UnknownXMLAttributeRule(), UnknownAttributeTypeRule(),
        InvalidDefaultValueRule(), SuspiciousDefaultValueRule(), DuplicateNameRule(), DuplicateRenamingIDRule(),
        UnknownEntityReferenceRule(), InverseMismatchRule(), MissingInverseRule(), UniquenessConstraintInvalidRule(),
        PlaceholderEntityRule(), DerivedAttributeInvalidRule(),
    ]

    public static let descriptions: [RuleDescription] = all.map { $0.description }

    public static let ids: Set<String> = Set(descriptions.map(\.id))

    public static func description(for id: String) -> RuleDescription? {
        descriptions.first { $0.id == id }
    }
}
