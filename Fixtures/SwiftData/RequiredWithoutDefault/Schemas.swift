import Foundation
import SwiftData

enum HabitsV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self] }
    @Model final class Habit {
        var name: String = ""
        init() {}
    }
}

enum HabitsV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self] }
    @Model final class Habit {
        var name: String = ""
        var streak: Int
        init() { streak = 0 }
    }
}

enum HabitsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [HabitsV1.self, HabitsV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: HabitsV1.self, toVersion: HabitsV2.self)] }
}
