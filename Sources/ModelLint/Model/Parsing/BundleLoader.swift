import Foundation
import Dispatch
import ModelLintSupport

/// Reads a `.xcdatamodeld` folder: every version (in parallel: they are independent) and the pointer.
package enum BundleLoader {
    package static func load(bundleURL: URL, displayPath: String, versionOrder: [String]? = nil) -> ModelBundle {
        load(bundleURL: bundleURL, displayPath: displayPath, versionOrder: versionOrder, cache: EntitySourceCache())
    }

    /// `cache`: entities already built from the same bundle (as a revision holds it, say), shared with this read.
    package static func load(
        bundleURL: URL, displayPath: String, versionOrder: [String]?, cache: EntitySourceCache
    ) -> ModelBundle {
        if bundleURL.pathExtension == "xcdatamodel" {
            return loadStandalone(versionURL: bundleURL, displayPath: displayPath)
        }
        let entries = DirectoryListing.entries(of: bundleURL.path)
        let folderNames = entries.names.filter { name in
            name.hasSuffix(".xcdatamodel") && FileReader.kind(at: bundleURL.path + "/" + name) == .directory
        }
        let names = VersionOrder.sorted(
            folderNames.map { String($0.dropLast(".xcdatamodel".count)) }, explicit: versionOrder)
        let suffix = Array(".xcdatamodel".utf8)
        let unreadableNames = entries.invalid.filter {
            $0.count > suffix.count && Array($0.suffix(suffix.count)) == suffix
        }
        .map { DirectoryListing.display(Array($0.dropLast(suffix.count))) }

        let versions = concurrentMap(names) { name -> ModelVersion in
            let folderPath = displayPath + "/" + name + ".xcdatamodel"
            let folderURL = bundleURL.appendingPathComponent(name + ".xcdatamodel")
            return ModelVersion(
                name: name, folderPath: folderPath, contentsPath: folderPath + "/contents",
                content: readVersion(folderURL: folderURL, contentsPath: folderPath + "/contents", cache: cache))
        }
        let (file, declared) = CurrentVersionReader.read(at: bundleURL.appendingPathComponent(".xccurrentversion"))
        var bundle = ModelBundle(
            path: displayPath, versions: versions, declaredCurrentVersion: declared, currentVersionFile: file)
        bundle.unreadableVersionNames = unreadableNames
        return bundle
    }

    /// A model version that is not in a `.xcdatamodeld` (Xcode compiles a lone `Model.xcdatamodel` to a `.mom`):
    /// a bundle of that one version, which is current.
    package static func loadStandalone(versionURL: URL, displayPath: String) -> ModelBundle {
        let name = String(versionURL.lastPathComponent.dropLast(".xcdatamodel".count))
        let version = ModelVersion(
            name: name, folderPath: displayPath, contentsPath: displayPath + "/contents",
            content: readVersion(folderURL: versionURL, contentsPath: displayPath + "/contents"))
        return ModelBundle(
            path: displayPath, versions: [version], declaredCurrentVersion: name, currentVersionFile: .present)
    }

    package static func readVersion(folderURL: URL, contentsPath: String, cache: EntitySourceCache? = nil)
        -> VersionContent
    {
        do {
            let contents = folderURL.appendingPathComponent("contents").path
            // A version folder or contents committed as a symlink is read only when it stays inside the bundle.
            if FileReader.isSymbolicLink(contents) || FileReader.isSymbolicLink(folderURL.path) {
                try FileReader.requireInside(contents, root: folderURL.deletingLastPathComponent().path)
            }
            let bytes = try FileReader.readBytes(contents, limit: FileReader.Limit.contents)
            return ContentsParser.parse(bytes: bytes, path: contentsPath, cache: cache)
        } catch FileReader.ReadError.missing {
            if FileReader.kind(at: folderURL.appendingPathComponent("elements").path) != nil
                || FileReader.kind(at: folderURL.appendingPathComponent("layout").path) != nil
            {
                return .legacy
            }
            return .missing
        } catch {
            return .malformed(reason: "\(error)", location: SourceLocation(file: contentsPath))
        }
    }
}
