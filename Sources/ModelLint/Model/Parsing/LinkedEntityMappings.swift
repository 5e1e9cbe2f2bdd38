import ModelLintSupport

/// One entity mapping that Xcode compiles into a mapping model: the source and destination entity it names (an add
/// mapping has no source, a remove mapping no destination).
package struct LinkedEntityMapping: Equatable, Sendable {
    package var source: String?
    package var destination: String?

    package init(source: String?, destination: String?) {
        self.source = source
        self.destination = destination
    }
}

/// The entity mappings of an `xcmapping.xml` that Core Data compares: those the one `XDDEVMAPPINGMODEL` object lists
/// in its `entitymappings` relationship (`idrefs`). `XDDEVENTITYMAPPING` objects it does not list are deleted
/// leftovers the compiler drops. Read from the bytes (the XML is never parsed, so its external DTD is never
/// resolved), in one pass over the file's `<object` tags.
package enum LinkedEntityMappings {
    /// nil: the mapping model object lists no entity mappings at all (not written by Xcode's editor, or cut short),
    /// so which entities it maps is unknown.
    package static func read(_ bytes: [UInt8]) -> [LinkedEntityMapping]? {
        let objectTag = Array("<object ".utf8)
        let mappingModelType = Array(" type=\"XDDEVMAPPINGMODEL\"".utf8)
        let entityMappingType = Array(" type=\"XDDEVENTITYMAPPING\"".utf8)
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
            // Most objects are attribute and relationship mappings: told apart by bytes, with no string made.
            if ByteSearch.firstIndex(of: mappingModelType, in: bytes, from: start, before: tagEnd) != nil {
                // Its body is mostly the two embedded models' base64: searched in place, never copied.
                guard listed == nil else { continue }
                listed = relationshipTargets("entitymappings", in: bytes, tagEnd..<end)
            } else if ByteSearch.firstIndex(of: entityMappingType, in: bytes, from: start, before: tagEnd) != nil {
                guard let id = attribute("id", in: tag) else { continue }
                mappings[id] = LinkedEntityMapping(
                    source: stringAttribute("sourcename", in: bytes, tagEnd..<end),
                    destination: stringAttribute("destinationname", in: bytes, tagEnd..<end))
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

    /// The ids a `<relationship name="…" … idrefs="z1 z2">` in `body` (a range of `bytes`) lists; nil when there is
    /// no such relationship.
    static func relationshipTargets(_ name: String, in bytes: [UInt8], _ body: Range<Int>) -> [String]? {
        let key = Array("<relationship name=\"\(name)\"".utf8)
        guard let at = ByteSearch.firstIndex(of: key, in: bytes, from: body.lowerBound, before: body.upperBound),
            let tagEnd = ByteSearch.firstIndex(of: [UInt8(ascii: ">")], in: bytes, from: at, before: body.upperBound)
        else { return nil }
        guard let ids = attribute("idrefs", in: bytes[at..<tagEnd]) else { return [] }
        return ids.split(separator: " ").map(String.init)
    }

    /// The text of `<attribute name="…" type="string">text</attribute>` in `body` (a range of `bytes`).
    static func stringAttribute(_ name: String, in bytes: [UInt8], _ body: Range<Int>) -> String? {
        let key = Array("<attribute name=\"\(name)\"".utf8)
        let end = body.upperBound
        guard let at = ByteSearch.firstIndex(of: key, in: bytes, from: body.lowerBound, before: end),
            let open = ByteSearch.firstIndex(of: [UInt8(ascii: ">")], in: bytes, from: at, before: end),
            bytes[open - 1] != UInt8(ascii: "/"),
            let close = ByteSearch.firstIndex(of: [UInt8(ascii: "<")], in: bytes, from: open + 1, before: end)
        else { return nil }
        let text = XMLEscape.unescaped(bytes[(open + 1)..<close])
        return text.isEmpty ? nil : text
    }
}
