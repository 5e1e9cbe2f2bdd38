/// `valueTransformerName` as Core Data reads it: absent, empty and `NSKeyedUnarchiveFromData` are the
/// same default; the secure transformer has two spellings.
public enum TransformerName {
    /// The name as a report shows it: the default (no name) by what Core Data uses for it.
    public static func shown(_ name: String?) -> String {
        let name = normalized(name)
        return name.isEmpty ? "default (NSKeyedUnarchiveFromData)" : name
    }

    public static func normalized(_ name: String?) -> String {
        switch name ?? "" {
        case "", "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName": return ""
        case "NSSecureUnarchiveFromDataTransformer", "NSSecureUnarchiveFromData",
            "NSSecureUnarchiveFromDataTransformerName":
            return "NSSecureUnarchiveFromData"
        case let other: return other
        }
    }
}
