import Foundation
import SwiftData

// 2.0: stops become unique per trip and title; duplicates are merged by the custom stage first.
enum TripsSchemaV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }

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
        var isFavorite: Bool = false

        init(name: String, place: String, startDate: Date, endDate: Date) {
            self.name = name
            self.place = place
            self.startDate = startDate
            self.endDate = endDate
        }
    }

    @Model
    final class Stop {
        #Unique<Stop>([\.title, \.arrival])
        var title: String
        var arrival: Date?
        var trip: Trip?

        init(title: String) { self.title = title }
    }
}

typealias Trip = TripsSchemaV3.Trip
typealias Stop = TripsSchemaV3.Stop
