/// An `NSManagedObject` subclass declared in Swift (with its extensions): the class name Core Data instantiates
/// (`@objc(Name)` when written) and its `@NSManaged` stored properties.
package struct ManagedObjectClass: Sendable {
    package var name: String
    /// The Objective-C name `@objc(Name)` gives it, if any.
    package var objcName: String?
    package var location: SwiftLocation
    package var properties: [(name: String, at: SwiftLocation)]
}

extension SwiftDataReader {
    /// The `NSManagedObject` subclasses of a module's files (direct subclasses; files of test targets left out).
    package static func managedObjectClasses(_ files: [SwiftSourceFile]) -> [ManagedObjectClass] {
        let index = SwiftTypeIndex(files: files)
        return index.order.compactMap { qualified -> ManagedObjectClass? in
            guard let entry = index.entry(qualified), entry.declaration.kind == .class,
                entry.declaration.inherited.first == "NSManagedObject",
                !Reading.isTestPath(files[entry.file].path)
            else { return nil }
            let path = files[entry.file].path
            var objcName: String?
            if let objc = entry.declaration.attribute("objc"), let range = objc.arguments,
                let token = files[entry.file].tokens[range].first, token.kind == .identifier
            {
                objcName = token.text
            }
            var properties: [(String, SwiftLocation)] = []
            // Stored properties only: Xcode's generated to-many accessors (`@NSManaged public func addToTags(_:)`)
            // are methods Core Data implements, not properties of the entity.
            for (member, file) in entry.members where member.kind == .var && member.hasAttribute("NSManaged") {
                properties.append(
                    (member.name, SwiftLocation(file: files[file].path, line: member.line, column: member.column)))
            }
            return ManagedObjectClass(
                name: entry.name, objcName: objcName,
                location: SwiftLocation(file: path, line: entry.declaration.line, column: entry.declaration.column),
                properties: properties)
        }
    }
}
