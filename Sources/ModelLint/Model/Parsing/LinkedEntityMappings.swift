import ModelLintSupport

/// One entity mapping that Xcode compiles into a mapping model: the source and destination entity it names (an add
/// mapping has no source, a remove mapping no destination).
public struct LinkedEntityMapping: Equatable, Sendable {
    public var source: String?
    public var destination: String?

    public init(source: String?, destination: String?) {
        self.source = source
        self.destination = destination
    }
}

/// The entity mappings of an `xcmapping.xml` that Core Data compares: those the one `XDDEVMAPPINGMODEL` object lists
/// in its `entitymappings` relationship (`idrefs`). `XDDEVENTITYMAPPING` objects it does not list are deleted
/// leftovers the compiler drops. Read from the bytes (the XML is never parsed, so its external DTD is never
/// resolved), in one pass over the file's `<object` tags.
public enum LinkedEntityMappings {
    /// nil: the mapping model object lists no entity mappings at all (not written by Xcode's editor, or cut short),
    /// so which entities it maps is unknown.
    public static func read(_ bytes: [UInt8]) -> [LinkedEntityMapping]? {
        let objectTag = Array("<object ".utf8)
        let objectEnd = Array("</object>".utf8)
        var listed: [String]?
        var mappings: [String: LinkedEntityMapping] = [:]
        var at = 0
        while let start = ByteSearch.firstIndex(of: objectTag, in: bytes, from: at) {
            guard let tagEnd = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: start) else { break }
            let tag = bytes[start..<tagEnd]
            let end = ByteSearch.firstIndex(of: objectEnd, in: bytes, from: tagEnd) ?? bytes.count
            at = max(tagEnd + 1, min(end + objectEnd.count, bytes.count))
            // A self-closed object has no body.
            guard bytes[tagEnd - 1] != UInt8(ascii: "/") else { continue }
            switch attribute("type", in: tag) {
            case "XDDEVMAPPINGMODEL"?:
                guard listed == nil else { continue }
                let body = Array(bytes[tagEnd..<end])
                listed = relationshipTargets("entitymappings", in: body)
            case "XDDEVENTITYMAPPING"?:
                guard let id = attribute("id", in: tag) else { continue }
                let body = Array(bytes[tagEnd..<end])
                mappings[id] = LinkedEntityMapping(
                    source: stringAttribute("sourcename", in: body),
                    destination: stringAttribute("destinationname", in: body))
            default:
                continue
            }
        }
        guard let listed else { return nil }
        return listed.compactMap { mappings[$0] }
    }

    /// `name="value"` in a tag, XML escapes decoded.
    static func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> String? {
        let key = Array(" \(name)=\"".utf8)
        let bytes = Array(tag)
        guard let at = ByteSearch.firstIndex(of: key, in: bytes),
            let close = ByteSearch.firstIndex(of: UInt8(ascii: "\""), in: bytes, from: at + key.count)
        else { return nil }
        return XMLEscape.unescaped(bytes[(at + key.count)..<close])
    }

    /// The ids a `<relationship name="…" … idrefs="z1 z2">` lists; nil when there is no such relationship.
    static func relationshipTargets(_ name: String, in body: [UInt8]) -> [String]? {
        let key = Array("<relationship name=\"\(name)\"".utf8)
        guard let at = ByteSearch.firstIndex(of: key, in: body),
            let tagEnd = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: body, from: at)
        else { return nil }
        guard let ids = attribute("idrefs", in: body[at..<tagEnd]) else { return [] }
        return ids.split(separator: " ").map(String.init)
    }

    /// The text of `<attribute name="…" type="string">text</attribute>`.
    static func stringAttribute(_ name: String, in body: [UInt8]) -> String? {
        let key = Array("<attribute name=\"\(name)\"".utf8)
        guard let at = ByteSearch.firstIndex(of: key, in: body),
            let open = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: body, from: at),
            body[open - 1] != UInt8(ascii: "/"),
            let close = ByteSearch.firstIndex(of: UInt8(ascii: "<"), in: body, from: open + 1)
        else { return nil }
        let text = XMLEscape.unescaped(body[(open + 1)..<close])
        return text.isEmpty ? nil : text
    }
}
