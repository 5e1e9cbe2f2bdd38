import SwiftData
import SwiftUI

@main
struct LibraryApp: App {
    // The store the Core Data version of the app wrote, opened with the @Model classes.
    let container = try! ModelContainer(
        for: Book.self, Loan.self,
        configurations: ModelConfiguration(url: URL.applicationSupportDirectory.appending(path: "Library.sqlite")))

    var body: some Scene {
        WindowGroup { Text("Library") }.modelContainer(container)
    }
}
