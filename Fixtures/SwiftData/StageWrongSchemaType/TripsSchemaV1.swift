import Foundation
import SwiftData

enum TripsSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }

    static var models: [any PersistentModel.Type] {
        [Trip.self, Stop.self]
    }

    @Model
    final class Trip {
        @Attribute(.unique) var name: String
        var destination: String
        var startDate: Date
        var endDate: Date
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
        var stops: [Stop] = []

        init(name: String, destination: String, startDate: Date, endDate: Date) {
            self.name = name
            self.destination = destination
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
