import Foundation

/// The `.xccurrentversion` property list naming a bundle's current version, as `new-version` and `fix` write it.
package enum CurrentVersionPointer {
    package static func bytes(naming name: String) -> [UInt8] {
        let data =
            (try? PropertyListSerialization.data(
                fromPropertyList: ["_XCCurrentVersionName": name + ".xcdatamodel"], format: .xml, options: 0))
            ?? Data()
        return Array(data)
    }
}
