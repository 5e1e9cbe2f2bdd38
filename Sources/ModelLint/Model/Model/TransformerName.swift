/// `valueTransformerName` as Core Data reads it: absent, empty and `NSKeyedUnarchiveFromData` are the
/// same default; the secure transformer has two spellings.
package enum TransformerName {
    /// The name as a report shows it: the default (no name) by what Core Data uses for it.
    package static func shown(_ name: String?) -> String {
        let name = normalized(name)
        return name.isEmpty ? "default (NSKeyedUnarchiveFromData)" : name
    }

    /// The transformer an attribute's values are read with: its `valueTransformerName`, or, when that is the
    /// default, the name an app keeps in the attribute's User Info (`transformer`) and restores at load.
    package static func effective(_ attribute: Attribute) -> String {
        let declared = normalized(attribute.valueTransformerName)
        guard declared.isEmpty, let kept = attribute.userInfo.first(where: { $0.key == userInfoKey })?.value else {
            return declared
        }
        return normalized(kept)
    }

    /// The User Info key apps keep a transformer's name under (`valueTransformerName=""` in the XML).
    package static let userInfoKey = "transformer"

    package static func normalized(_ name: String?) -> String {
        switch name ?? "" {
        case "", "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName": return ""
        case "NSSecureUnarchiveFromDataTransformer", "NSSecureUnarchiveFromData",
            "NSSecureUnarchiveFromDataTransformerName":
            return "NSSecureUnarchiveFromData"
        case let other: return other
        }
    }
}
