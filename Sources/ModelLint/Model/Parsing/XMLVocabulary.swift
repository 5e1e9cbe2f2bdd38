/// Every element and attribute of the Core Data model format that modellint knows, by element.
/// Anything else is reported as `unknown-xml-attribute`. `renamingIdentifier` is deliberately absent:
/// it is not Xcode's format, and gets its own rule.
package enum XMLVocabulary {
    /// XML's white space (the `S` production): space, tab, line feed, carriage return.
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

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

extension XMLVocabulary {
    // Names are found among the few of the same UTF-8 length, never hashed: the parser asks about every attribute
    // and child of every element it builds, and the builders about every XML attribute, and hashing a name costs
    // some 300 instructions where comparing two short ASCII strings costs a few. The names are ASCII: a name equal
    // to one as a `String` but of another length has a character that is not (`usedWithCloud\u{212A}it`, a Kelvin
    // sign, equals `usedWithCloudKit`), and is looked up by hashing, as before.

    /// `items` by the UTF-8 length of their names (the index).
    private static func groupedByLength<Item>(_ items: [Item], name: (Item) -> String) -> [[Item]] {
        var byLength: [[Item]] = []
        for item in items {
            let length = name(item).utf8.count
            if byLength.count <= length { byLength += Array(repeating: [], count: length + 1 - byLength.count) }
            byLength[length].append(item)
        }
        return byLength
    }

    /// A value for each of a few known names.
    package struct Table<Value: Sendable>: Sendable {
        private let byLength: [[(name: String, value: Value)]]
        private let dictionary: [String: Value]

        package init(_ pairs: [(String, Value)]) {
            byLength = XMLVocabulary.groupedByLength(pairs.map { (name: $0.0, value: $0.1) }) { $0.name }
            dictionary = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        }

        package subscript(name: String) -> Value? {
            let length = name.utf8.count
            if length < byLength.count, let hit = byLength[length].first(where: { $0.name == name }) {
                return hit.value
            }
            // Equal to a name of another length: only a name with a character other than ASCII can be.
            return name.utf8.allSatisfy { $0 < 0x80 } ? nil : dictionary[name]
        }
    }

    /// A set of words.
    package struct Words: Sendable {
        private let byLength: [[String]]
        private let set: Set<String>

        package init(_ words: Set<String>) {
            byLength = XMLVocabulary.groupedByLength(Array(words)) { $0 }
            set = words
        }

        package static let none = Words([])

        package func contains(_ word: String) -> Bool {
            let length = word.utf8.count
            if length < byLength.count && byLength[length].contains(word) { return true }
            // Equal to a word of another length: only a name with a character other than ASCII can be.
            return !word.utf8.allSatisfy { $0 < 0x80 } && set.contains(word)
        }
    }

    /// What may stand on and inside one element.
    package struct Element: Sendable {
        package let name: String
        package let attributes: Words
        package let children: Words
    }

    /// Every element's vocabulary, by the length of its name.
    private static let elements: [[Element]] = groupedByLength(
        attributes.map { name, attributes in
            Element(name: name, attributes: Words(attributes), children: Words(children[name] ?? []))
        }
    ) { $0.name }

    /// The vocabulary of the element called `name`; nil for an element the format does not have.
    package static func element(_ name: String) -> Element? {
        let length = name.utf8.count
        if length < elements.count, let element = elements[length].first(where: { $0.name == name }) { return element }
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return elements.joined().first { $0.name == name }
    }
}
