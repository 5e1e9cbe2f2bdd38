import SwiftData
import SwiftUI

@main
struct LibraryApp: App {
    let container: ModelContainer

    init() {
        let config = ModelConfiguration(url: URL.documentsDirectory.appending(path: "Library.sqlite"))
        container = try! ModelContainer(
            for: LibraryV2.Book.self, LibraryV2.Loan.self, LibraryV2.Shelf.self,
            migrationPlan: LibraryMigration.self,
            configurations: config
        )
    }

    var body: some Scene {
        WindowGroup { Text("Library") }.modelContainer(container)
    }
}
