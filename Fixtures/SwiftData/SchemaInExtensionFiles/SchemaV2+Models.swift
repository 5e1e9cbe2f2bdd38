import Foundation
import SwiftData

// The schema is declared in SchemaV2.swift; its models and model here, in an extension.
extension SchemaV2 {
    static var models: [any PersistentModel.Type] { [Item.self] }
    @Model final class Item {
        var title: String = ""
        var created: Date = Date()
        var priority: Int
        init() { priority = 0 }
    }
}
typealias Item = SchemaV2.Item
