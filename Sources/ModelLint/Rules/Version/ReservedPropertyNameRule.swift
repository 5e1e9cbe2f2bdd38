import ModelLintModel

package struct ReservedPropertyNameRule: EntityRule {
    package init() {}

    package static let readsOnlyItsEntity = true

    /// No-parameter methods of NSObject and NSManagedObject that a property would shadow (Apple's documentation
    /// of NSPropertyDescription: a property cannot have the name of such a method).
    package static let reserved: Set<String> = [
        "description", "entity", "objectID", "isDeleted", "isInserted", "isUpdated", "isFault", "managedObjectContext",
        "hasChanges", "changedValues", "hash", "class", "self", "superclass", "debugDescription", "faultingState",
        "observationInfo",
    ]

    package static let description = RuleDescription(
        id: "reserved-property-name", category: .singleVersion, severity: .error,
        summary:
            "a property named like a no-parameter method of NSObject or NSManagedObject (`description`, `entity`, `objectID`, ...)",
        rationale: """
            Apple documents that a property cannot be named like a method of NSObject or NSManagedObject that takes no \
            parameters: the generated class does not compile, or its accessor shadows Core Data's own (`description`, \
            `entity`, `objectID`, `isDeleted`, `isInserted`, `isUpdated`, `isFault`, `managedObjectContext`, `hasChanges`, \
            `changedValues`, `hash`, `class`, `self`, `superclass`, `debugDescription`, `faultingState`, \
            `observationInfo`), and Core Data misbehaves in ways that are hard to trace.
            """,
        fix:
            "rename it; if the version has shipped, give the renamed property `elementID` = the old name so its data is kept",
        swiftDataFix:
            "rename it; if the schema has shipped, give the renamed property `@Attribute(originalName: \"old\")` so its data is kept",
        examples: [
            .triggering(
                """
                <entity name="Note">
                    ↓<attribute name="description" optional="YES" attributeType="String"/>
                    ↓<relationship name="entity" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Note">
                    <attribute name="summary" optional="YES" attributeType="String" elementID="description"/>
                    <attribute name="descriptionText" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        entity.properties.compactMap { property in
            guard Self.reserved.contains(property.name) else { return nil }
            return Finding(
                "\(entity.name).\(property.name) is named like a method of NSManagedObject or NSObject (\(property.name)): Apple documents that a property cannot have this name; the generated class does not compile, or the accessor shadows Core Data's own",
                at: property.location, entity: entity.name, property: property.name)
        }
    }
}
