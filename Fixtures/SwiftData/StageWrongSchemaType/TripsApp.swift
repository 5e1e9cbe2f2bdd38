import SwiftData
import SwiftUI

@main
struct TripsApp: App {
    let container: ModelContainer

    init() {
        do {
            container = try ModelContainer(
                for: Schema(versionedSchema: TripsSchemaV3.self),
                migrationPlan: TripsMigrationPlan.self
            )
        } catch {
            fatalError("Could not open the trips store: \(error)")
        }
    }

    var body: some Scene {
        WindowGroup { TripList() }
            .modelContainer(container)
    }
}
