import SwiftData
import SwiftUI

@main
struct RecipesApp: App {
    let container: ModelContainer = {
        do {
            return try ModelContainer(for: RecipesV3.Recipe.self, migrationPlan: RecipesPlan.self)
        } catch {
            fatalError("store: \(error)")
        }
    }()

    var body: some Scene {
        WindowGroup { ContentView() }
            .modelContainer(container)
    }
}

#if DEBUG
@MainActor let previewContainer = try! ModelContainer(
    for: RecipesV1.Recipe.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
#endif
