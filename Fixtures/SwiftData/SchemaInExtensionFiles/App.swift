import SwiftUI
import SwiftData
@main struct MyApp: App {
    var body: some Scene {
        WindowGroup { Text("x") }
            .modelContainer(for: Item.self, migrationPlan: AppPlan.self)
    }
}
