import Foundation
import SwiftData

// The live model: release 1.1 added `priority`, which moved TodoV1's checksum too.
@Model
final class Item {
    var title: String
    var createdAt: Date
    var priority: Int = 0

    init(title: String) {
        self.title = title
        self.createdAt = .now
    }
}
