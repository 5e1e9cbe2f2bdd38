import Foundation
import SwiftData

enum TripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self]
    }

    static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    static let migrateV1toV2 = MigrationStage.lightweight(
        fromVersion: TripsSchemaV1.self,
        toVersion: TripsSchemaV2.self
    )

    static let migrateV2toV3 = MigrationStage.custom(
        fromVersion: TripsSchemaV2.self,
        toVersion: TripsSchemaV3.self,
        willMigrate: { context in
            let stops = try context.fetch(FetchDescriptor<TripsSchemaV2.Stop>())
            var seen = Set<String>()
            for stop in stops where !seen.insert("\(stop.title)|\(String(describing: stop.arrival))").inserted {
                context.delete(stop)
            }
            try context.save()
        },
        didMigrate: nil
    )
}
