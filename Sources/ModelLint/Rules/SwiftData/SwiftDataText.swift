import ModelLintModel
import ModelLintSwiftData

/// How SwiftData findings name schemas, types and places.
enum SwiftDataText {
    /// `Models.swift:12`: a place in another file, as a message names it.
    static func place(_ location: SwiftLocation) -> String {
        let file = location.file.split(separator: "/").last.map(String.init) ?? location.file
        return "\(file):\(location.line)"
    }

    /// The position of a schema in its set's order.
    static func position(of qualified: String?, in set: SwiftSchemaSet) -> Int? {
        guard let qualified else { return nil }
        return set.schemas.firstIndex { $0.qualifiedName == qualified }
    }

    /// A schema's name as written, from its qualified name.
    static func name(_ qualified: String) -> String {
        qualified.split(separator: ".").last.map(String.init) ?? qualified
    }
}
