import SwiftData

// The plan's stage, declared in an extension in a file of its own. Nothing here names a schema's or a model's
// declaration: only the stage.
extension ShelfPlan {
    static let v1ToV2 = MigrationStage.custom(
        fromVersion: ShelfV1.self, toVersion: ShelfV2.self,
        willMigrate: { context in
            // Keep one book per title before titles become unique.
            try context.save()
        },
        didMigrate: nil
    )
}
