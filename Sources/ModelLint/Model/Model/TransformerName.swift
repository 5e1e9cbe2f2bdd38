/// `valueTransformerName` as Core Data reads it: absent, empty and `NSKeyedUnarchiveFromData` are the
/// same default; the secure transformer has two spellings.
public enum TransformerName {
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
