import Foundation
import SwiftData

// 1.1: `destination` renamed `place` (a renaming identifier, so the column is kept), photos stored outside the store.
enum TripsSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }

    static var models: [any PersistentModel.Type] {
        [Trip.self, Stop.self]
    }

    @Model
    final class Trip {
        @Attribute(.unique) var name: String
        @Attribute(originalName: "destination") var place: String
        var startDate: Date
        var endDate: Date
        @Attribute(.externalStorage) var cover: Data?
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
        var stops: [Stop] = []

        init(name: String, place: String, startDate: Date, endDate: Date) {
            self.name = name
            self.place = place
            self.startDate = startDate
            self.endDate = endDate
        }
    }

    @Model
    final class Stop {
        var title: String
        var arrival: Date?
        var trip: Trip?

        init(title: String) { self.title = title }
    }
}
