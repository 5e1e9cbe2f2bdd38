import SwiftData
import SwiftUI

// Containers the app never opens a store on a device with: previews and in-memory helpers. Each is built from an
// older schema's types, which would be swiftdata-container-schema-not-latest in the app's own container.

#Preview {
    RecipeList()
        .modelContainer(for: RecipesV1.Recipe.self, inMemory: true)
}

struct RecipeList_Previews: PreviewProvider {
    static var previews: some View {
        RecipeList().modelContainer(try! ModelContainer(for: RecipesV1.Recipe.self))
    }
}

@MainActor
enum SampleData {
    static let preview: ModelContainer = {
        try! ModelContainer(for: RecipesV1.Recipe.self)
    }()

    static func makePreviewContainer() throws -> ModelContainer {
        try ModelContainer(for: RecipesV2.Recipe.self)
    }

    static func scratch() throws -> ModelContainer {
        let configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        return try ModelContainer(for: RecipesV1.Recipe.self, configurations: configuration)
    }
}
