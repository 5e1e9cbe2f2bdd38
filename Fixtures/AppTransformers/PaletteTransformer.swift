import UIKit

/// Colours stored as secure keyed archives, registered under the class's name at launch.
@objc(PaletteTransformer)
final class PaletteTransformer: NSSecureUnarchiveFromDataTransformer {
    static let name = NSValueTransformerName(rawValue: "PaletteTransformer")

    override static var allowedTopLevelClasses: [AnyClass] {
        [UIColor.self, NSArray.self]
    }

    static func register() {
        ValueTransformer.setValueTransformer(PaletteTransformer(), forName: name)
    }
}
