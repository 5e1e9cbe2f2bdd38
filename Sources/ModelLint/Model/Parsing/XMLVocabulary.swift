/// Every element and attribute of the Core Data model format that modellint knows, by element.
/// Anything else is reported as `unknown-xml-attribute`. `renamingIdentifier` is deliberately absent:
/// it is not Xcode's format, and gets its own rule.
package enum XMLVocabulary {
    package static let attributes: [String: Set<String>] = [
        "model": [
            "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
            "sourceLanguage", "usedWithCloudKit", "usedWithSwiftData", "userDefinedModelVersionIdentifier",
            "macOSVersion", "iOSVersion",
            // Xcode 4 wrote an empty name on the model.
            "name",
        ],
        "entity": [
            "name", "representedClassName", "parentEntity", "isAbstract", "elementID", "versionHashModifier",
            "codeGenerationType", "syncable", "renamingIdentifier",
        ],
        "attribute": [
            "name", "optional", "transient", "attributeType", "defaultValueString", "defaultDateTimeInterval",
            "minValueString", "maxValueString", "regularExpressionString", "usesScalarValueType",
            "valueTransformerName", "customClassName", "allowsExternalBinaryDataStorage", "preserveAfterDeletion",
            "allowsCloudEncryption", "spotlightIndexingEnabled", "indexed", "derived", "derivationExpression",
            "elementID", "versionHashModifier", "syncable", "composite", "renamingIdentifier",
        ],
        "relationship": [
            "name", "optional", "transient", "toMany", "ordered", "minCount", "maxCount", "deletionRule",
            "elementID", "destinationEntity", "inverseName", "inverseEntity", "versionHashModifier", "syncable",
            "spotlightIndexingEnabled", "renamingIdentifier",
            // The property's Indexed flag: Xcode wrote it on relationships until about Xcode 12.
            "indexed",
        ],
        "fetchedProperty": ["name", "optional", "syncable"],
        "fetchRequest": [
            "name", "entity", "predicateString", "fetchLimit", "fetchBatchSize", "resultType",
            "includeSubentities", "includePropertyValues", "includesPendingChanges", "returnObjectsAsFaults",
            "returnDistinctResults",
        ],
        "uniquenessConstraints": [],
        "uniquenessConstraint": [],
        "constraint": ["value"],
        "fetchIndex": ["name"],
        "fetchIndexElement": ["property", "expression", "expressionType", "type", "order"],
        "compoundIndexes": [],
        "compoundIndex": [],
        "index": ["value"],
        "userInfo": [],
        "entry": ["key", "value"],
        "configuration": ["name", "usedWithCloudKit"],
        "memberEntity": ["name"],
        "elements": [],
        "element": ["name", "positionX", "positionY", "width", "height"],
        "composite": ["name"],
    ]

    /// Which elements may appear inside which.
    package static let children: [String: Set<String>] = [
        "model": ["entity", "configuration", "fetchRequest", "elements", "composite"],
        "entity": [
            "attribute", "relationship", "fetchedProperty", "uniquenessConstraints", "fetchIndex", "compoundIndexes",
            "userInfo",
        ],
        "attribute": ["userInfo"],
        "relationship": ["userInfo"],
        "fetchedProperty": ["fetchRequest", "userInfo"],
        "fetchRequest": [],
        "uniquenessConstraints": ["uniquenessConstraint"],
        "uniquenessConstraint": ["constraint"],
        "constraint": [],
        "fetchIndex": ["fetchIndexElement"],
        "fetchIndexElement": [],
        "compoundIndexes": ["compoundIndex"],
        "compoundIndex": ["index"],
        "index": [],
        "userInfo": ["entry"],
        "entry": [],
        "configuration": ["memberEntity"],
        "memberEntity": [],
        "elements": ["element"],
        "element": [],
        "composite": ["attribute"],
    ]
}
