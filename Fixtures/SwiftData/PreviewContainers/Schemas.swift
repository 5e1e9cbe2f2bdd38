import SwiftData

enum RecipesV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Recipe.self] }
    @Model final class Recipe {
        var name: String = ""
        init() {}
    }
}

enum RecipesV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Recipe.self] }
    @Model final class Recipe {
        var name: String = ""
        var servings: Int = 1
        init() {}
    }
}

enum RecipesV3: VersionedSchema {
    static var versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Recipe.self] }
    @Model final class Recipe {
        var name: String = ""
        var servings: Int = 1
        var notes: String?
        init() {}
    }
}

enum RecipesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [RecipesV1.self, RecipesV2.self, RecipesV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: RecipesV1.self, toVersion: RecipesV2.self),
            .lightweight(fromVersion: RecipesV2.self, toVersion: RecipesV3.self),
        ]
    }
}
