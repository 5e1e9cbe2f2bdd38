import Foundation
import ModelLintSupport

/// A custom mapping model (`.xcmappingmodel`) and the pair of versions it maps.
public struct MappingModel: Equatable, Sendable {
    /// The file name without extension, as users know it: `Delta5ToDelta6`.
    public var name: String
    public var source: String
    public var destination: String
    /// How a finding names what covers its step ("the mapping model X" unless set: a SwiftData custom stage).
    public var coverage: String?

    package init(name: String, source: String, destination: String, coverage: String? = nil) {
        self.name = name
        self.source = source
        self.destination = destination
        self.coverage = coverage
    }
}

/// Finds `.xcmappingmodel` bundles near a model bundle and reads which versions they map.
public enum MappingModelReader {
    /// The pair a mapping model maps, among `versions`: from `sourcemodelpath`/`destinationmodelpath`
    /// (their last component; the rest is often stale), else from the file name (`DeltaToDelta2`).
    public static func read(_ url: URL, versions: [String], paths: (source: String?, destination: String?)? = nil)
        -> MappingModel?
    {
        let name = url.deletingPathExtension().lastPathComponent
        let paths = paths ?? modelPaths(in: url.appendingPathComponent("xcmapping.xml"))
        if let source = paths.source.flatMap(versionName), let destination = paths.destination.flatMap(versionName),
            versions.contains(source), versions.contains(destination)
        {
            return MappingModel(name: name, source: source, destination: destination)
        }
        guard let (source, destination) = pairFromFileName(name, versions: versions) else { return nil }
        return MappingModel(name: name, source: source, destination: destination)
    }

    package static func versionName(_ path: String) -> String? {
        guard let last = path.split(separator: "/").last else { return nil }
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : String(last)
    }

    /// Scans the file in chunks and stops once both paths are known: these files embed both models as
    /// base64 and can be several megabytes. The XML is never parsed, so its external DTD is never resolved.
    package static func modelPaths(in file: URL) -> (source: String?, destination: String?) {
        var source: String?
        var destination: String?
        var window: [UInt8] = []
        try? FileReader.scan(file.path, limit: FileReader.Limit.mappingModel) { chunk in
            window += chunk
            if source == nil { source = value(of: "sourcemodelpath", in: window) }
            if destination == nil { destination = value(of: "destinationmodelpath", in: window) }
            // Keep a tail so a value split across chunks is still found.
            if window.count > 4096 { window.removeFirst(window.count - 4096) }
            return source == nil || destination == nil
        }
        return (source, destination)
    }

    package static func value(of attribute: String, in bytes: [UInt8]) -> String? {
        guard let start = ByteSearch.firstIndex(of: Array("name=\"\(attribute)\"".utf8), in: bytes),
            let open = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: start),
            let close = ByteSearch.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: open + 1)
        else { return nil }
        return String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
    }

    /// `DeltaToDelta2`, `WooCommerceModelV9toV10`: split at "To"/"to", then match each side to one version by
    /// spelling (spaces and case ignored) or, failing that, by its trailing number.
    package static func pairFromFileName(_ name: String, versions: [String]) -> (String, String)? {
        var searchStart = name.startIndex
        // Try every "to": version names can contain it too (`PhotoToPhoto2`).
        while let range = name.range(of: "to", options: .caseInsensitive, range: searchStart..<name.endIndex) {
            let left = String(name[..<range.lowerBound])
            let right = String(name[range.upperBound...])
            if let source = match(left, versions), let destination = match(right, versions), source != destination {
                return (source, destination)
            }
            searchStart = range.upperBound
        }
        return nil
    }

    package static func match(_ fragment: String, _ versions: [String]) -> String? {
        func squash(_ s: String) -> String { s.lowercased().filter { !$0.isWhitespace } }
        if let exact = versions.first(where: { squash($0) == squash(fragment) }) { return exact }
        let number = trailingNumber(fragment)
        let candidates = versions.filter { trailingNumber($0) == number }
        return candidates.count == 1 ? candidates[0] : nil
    }

    package static func trailingNumber(_ s: String) -> Int? {
        let digits = s.reversed().prefix { $0.isASCIIDigit }
        return digits.isEmpty ? nil : Int(String(digits.reversed()))
    }
}
