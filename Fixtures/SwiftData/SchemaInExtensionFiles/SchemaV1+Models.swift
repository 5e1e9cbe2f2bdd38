import Foundation
import SwiftData

// The schema is declared in SchemaV1.swift; its version, models and model here, in an extension.
extension SchemaV1 {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }
    @Model final class Item {
        var title: String = ""
        var created: Date = Date()
        init() {}
    }
}
