import SwiftData
import SwiftUI

@main
struct RecipesApp: App {
    var body: some Scene {
        WindowGroup { ContentView() }
            .modelContainer(for: RecipesV2.Recipe.self)
    }
}
