import Foundation
import SwiftData

// Each schema freezes the shape that shipped; the app uses the newest through a typealias.
typealias Item = TodoV2.Item

enum TodoV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model
    final class Item {
        var title: String
        var createdAt: Date
        init(title: String) {
            self.title = title
            self.createdAt = .now
        }
    }
}

enum TodoV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 1, 0)
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model
    final class Item {
        var title: String
        var createdAt: Date
        var priority: Int = 0
        init(title: String) {
            self.title = title
            self.createdAt = .now
        }
    }
}

enum TodoMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TodoV1.self, TodoV2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static let migrateV1toV2 = MigrationStage.lightweight(fromVersion: TodoV1.self, toVersion: TodoV2.self)
}
