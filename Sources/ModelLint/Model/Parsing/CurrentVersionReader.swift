import Foundation
import ModelLintSupport

/// Reads `.xccurrentversion`: a property list whose `_XCCurrentVersionName` is `"Name 3.xcdatamodel"`.
package enum CurrentVersionReader {
    package static func read(at url: URL) -> (ModelBundle.CurrentVersionFile, String?) {
        let data: Data
        do {
            data = try FileReader.read(url.path, limit: FileReader.Limit.smallFile)
        } catch FileReader.ReadError.missing {
            return (.absent, nil)
        } catch {
            return (.unreadable("\(error)"), nil)
        }
        return parse(data)
    }

    package static func parse(_ data: Data) -> (ModelBundle.CurrentVersionFile, String?) {
        if data.isEmpty { return (.unreadable("the file is empty"), nil) }
        let plist: Any
        do {
            plist = try PropertyList.parse(data)
        } catch {
            return (.unreadable("it is not a property list"), nil)
        }
        guard let dictionary = plist as? [String: Any] else {
            return (.unreadable("its root is not a dictionary"), nil)
        }
        guard let value = dictionary["_XCCurrentVersionName"] else { return (.empty, nil) }
        guard let name = value as? String, !name.isEmpty else {
            return (.unreadable("_XCCurrentVersionName is not a version name"), nil)
        }
        let version = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
        return (.present, version)
    }
}
