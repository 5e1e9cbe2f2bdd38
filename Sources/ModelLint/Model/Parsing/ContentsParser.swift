import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import ModelLintSupport

/// Reads one `contents` file into a `Model`, or says precisely why it cannot.
package enum ContentsParser {
    package static func parse(data: Data, path: String) -> VersionContent {
        parse(data: data, path: path, cache: nil)
    }

    /// `cache`: entities already built from other versions of the same bundle.
    /// `blankingLayout`: whether the diagram layout is blanked before parsing when that cannot change the result
    /// (`LayoutSection`); off only to test that it does not.
    package static func parse(data: Data, path: String, cache: EntitySourceCache?, blankingLayout: Bool = true)
        -> VersionContent
    {
        parse(bytes: [UInt8](data), data: data, path: path, cache: cache, blankingLayout: blankingLayout)
    }

    /// The file's bytes as read (`FileReader.readBytes`), without a `Data` of them: the parser is handed one only
    /// when it reads them as they are.
    package static func parse(bytes: [UInt8], path: String, cache: EntitySourceCache?) -> VersionContent {
        parse(bytes: bytes, data: nil, path: path, cache: cache, blankingLayout: true)
    }

    /// `data`: the same bytes, when the caller has them as `Data` already.
    private static func parse(
        bytes: [UInt8], data: Data?, path: String, cache: EntitySourceCache?, blankingLayout: Bool
    ) -> VersionContent {
        if bytes.allSatisfy(XMLVocabulary.isSpace) {
            return .malformed(reason: "the file is empty", location: SourceLocation(file: path, line: 1, column: 1))
        }
        // Entities repeated from other versions are blanked: the parser reads each repeat as `<entity/>` (and a
        // repeated property of an entity that changed as `<attribute/>` or `<relationship/>`).
        // A file that declares namespaces is neither blanked nor cached: a prefix's meaning comes from outside the text.
        let caching = cache != nil && !EntitySourceCache.declaresNamespaces(bytes)
        var text =
            if let cache, caching { cache.blankingRepeats(in: bytes) } else {
                EntitySourceCache.BlankedText(bytes: bytes)
            }
        // What the parser must never see is looked for in the text it reads: a repeat is byte for byte text that
        // passed these checks in its own file, and none of what they look for can reach across the `<` and `>` a
        // repeat begins and ends with. Refused, the file itself is checked, for the reason and the place in it.
        if refusal(of: text.bytes, path: path) != nil {
            if let refused = refusal(of: bytes, path: path) { return refused }
            text = EntitySourceCache.BlankedText(bytes: bytes)  // not reached (see above): read as written
        }
        struct Read {
            var builder: TreeBuilder
            var parser: XMLParser
            var succeeded: Bool
            var blankedLayout: Bool
            /// On Linux, parse() can return true for malformed input: parserError is the real verdict.
            var error: Error? {
                builder.error ?? parser.parserError ?? (succeeded ? nil : NSError(domain: "XMLParser", code: -1))
            }
        }
        func read(_ text: EntitySourceCache.BlankedText, blankingLayout: Bool) -> Read {
            let layoutBlanked = blankingLayout ? LayoutSection.blanked(text.bytes) : nil
            let parsed = layoutBlanked ?? text.bytes
            let builder = TreeBuilder(bytes: parsed, path: path, text: text, original: bytes, caching: caching)
            let parser = xmlParser(
                text.blanksAnything || layoutBlanked != nil ? Data(parsed) : data ?? Data(parsed), delegate: builder)
            let succeeded = parser.parse()
            return Read(builder: builder, parser: parser, succeeded: succeeded, blankedLayout: layoutBlanked != nil)
        }
        func readFile(blankingLayout: Bool) -> Read {
            let first = read(text, blankingLayout: blankingLayout)
            guard first.builder.foundRepeatOutOfPlace, let cache else { return first }
            // A run of repeats stands where entities do not belong, or a blanked property where properties do not:
            // read again with a placeholder per repeat and every property as written, so each is reported or
            // refused as it would be alone.
            return read(
                cache.blankingRepeats(in: bytes, joiningRuns: false, blankingProperties: false),
                blankingLayout: blankingLayout)
        }
        var result = readFile(blankingLayout: blankingLayout)
        if result.blankedLayout, result.error != nil {
            // The blanked layout is well-formed on its own, but the file is not: it is read again as written, so the
            // verdict and its place are the parser's on the file itself.
            result = readFile(blankingLayout: false)
        }
        let (builder, parser) = (result.builder, result.parser)
        if let error = result.error {
            let line = max(parser.lineNumber, 1)
            let column = max(parser.columnNumber, 1)
            return .malformed(
                reason: "it is not well-formed XML (\(describe(error)))",
                location: SourceLocation(file: path, line: line, column: column))
        }
        guard let root = builder.root else {
            return .malformed(
                reason: "it has no root element", location: SourceLocation(file: path, line: 1, column: 1))
        }
        guard root.name == "model" else {
            return .malformed(
                reason: "its root element is <\(root.name)>, not a Core Data <model>",
                location: root.location)
        }
        return .model(ModelBuilder(path: path, cache: cache).build(root: root, unknown: builder.unknown))
    }

    /// Why the parser must not read `bytes`, if it must not.
    private static func refusal(of bytes: [UInt8], path: String) -> VersionContent? {
        func refuse(_ reason: String, at offset: Int) -> VersionContent {
            let (line, column) = TextPosition.lineAndColumn(ofOffset: offset, in: bytes)
            return .malformed(reason: reason, location: SourceLocation(file: path, line: line, column: column))
        }
        let markup = RefusedMarkup(bytes)
        // Refused before the parser sees it: expanding declarations is how hostile XML exhausts
        // memory (billion laughs) or reads local files (XXE). Xcode never writes a DTD here.
        for (marker, offset) in [("<!DOCTYPE", markup.doctype), ("<!ENTITY", markup.entity)] {
            if let offset {
                return refuse(
                    "it declares a DTD or entities (\(marker)); Xcode never writes one, and modellint does not expand them",
                    at: offset)
            }
        }
        // FoundationXML traps on names that are not valid UTF-8 (elements, attributes, processing instructions:
        // found by fuzzing), whatever encoding the file declares, so bytes are validated before the parser sees
        // them. Xcode writes every contents file as UTF-8.
        if let offset = UTF8Validation.firstInvalidByte(bytes) {
            return refuse("it is not valid UTF-8 (byte \(offset))", at: offset)
        }
        // FoundationXML also crashes on a processing instruction without data (`<?foo?>`); Xcode writes none
        // besides the XML declaration, so any other is refused.
        if let offset = markup.processingInstruction {
            return refuse(
                "it contains a processing instruction (<?…?>) other than the XML declaration; Xcode never writes one",
                at: offset)
        }
        return nil
    }

    private static func xmlParser(_ parsed: Data, delegate: TreeBuilder) -> XMLParser {
        // libxml2 refuses a single chunk over 10 MB ("huge input"); a stream feeds it in pieces. Smaller files
        // take the faster one-chunk path.
        let parser = parsed.count > 8_000_000 ? XMLParser(stream: InputStream(data: parsed)) : XMLParser(data: parsed)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = delegate
        return parser
    }

    /// libxml2's codes, which XMLParser passes through on every platform; the common ones in words.
    package static func describe(_ error: Error) -> String {
        let code = (error as NSError).code
        let words: [Int: String] = [
            201: "a namespace prefix that is not declared",
            4: "the document is empty",
            5: "the document does not end properly: truncated, or content after the root element",
            9: "an invalid character", 26: "an undeclared entity", 32: "an unterminated comment",
            38: "a '<' inside an attribute value, or an unterminated attribute value",
            39: "an attribute value without quotes", 40: "an unterminated attribute value",
            41: "an attribute without a value", 42: "an attribute given twice", 64: "a malformed XML declaration",
            73: "a start tag that is never closed", 76: "a closing tag that does not match its opening tag",
            77: "a tag that is never finished",
        ]
        return (words[code] ?? "parser error") + ", libxml2 code \(code)"
    }
}

/// Where the markup refused before parsing first appears: one pass over the bytes for all of it.
package struct RefusedMarkup {
    package var doctype: Int?
    package var entity: Int?
    /// The first `<?` that is not the XML declaration at the very start of the file.
    package var processingInstruction: Int?

    package init(_ bytes: [UInt8]) {
        let declaration =
            bytes.starts(with: Array("<?xml".utf8)) && bytes.count > 5 && XMLVocabulary.isSpace(bytes[5])
        let doctype = Array("DOCTYPE".utf8)
        let entity = Array("ENTITY".utf8)
        func follows(_ word: [UInt8], at offset: Int) -> Bool {
            offset + word.count <= bytes.count && bytes[offset..<(offset + word.count)].elementsEqual(word)
        }
        // Each `<!` and `<?` found from its second byte: a file has a `<` per element, and almost no `!` or `?`.
        ByteSearch.forEach(UInt8(ascii: "?"), in: bytes, from: 1) { j in
            if bytes[j - 1] == UInt8(ascii: "<") && !(j == 1 && declaration) { processingInstruction = j - 1 }
            return processingInstruction == nil
        }
        ByteSearch.forEach(UInt8(ascii: "!"), in: bytes, from: 1) { j in
            guard bytes[j - 1] == UInt8(ascii: "<") else { return true }
            if self.doctype == nil && follows(doctype, at: j + 1) { self.doctype = j - 1 }
            if self.entity == nil && follows(entity, at: j + 1) { self.entity = j - 1 }
            return self.doctype == nil || self.entity == nil
        }
    }
}

package enum TextPosition {
    /// 1-based line and byte column of a byte offset.
    package static func lineAndColumn(ofOffset offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        var i = 0
        while i < offset && i < bytes.count {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return (line, offset - lineStart + 1)
    }
}

/// A parsed element of the known vocabulary. Internal: no XML type leaves the parser.
package final class XMLNode {
    package let name: String
    package let attributes: [String: String]
    package let location: SourceLocation
    /// Byte offset of the element's `<`.
    package let offset: Int
    package var children: [XMLNode] = []
    /// For a top-level `<entity>` and its properties only: what the entity source cache knows of its text.
    package var source = EntitySource()

    package init(name: String, attributes: [String: String], location: SourceLocation, offset: Int) {
        self.name = name
        self.attributes = attributes
        self.location = location
        self.offset = offset
    }
}

/// What the entity source cache knows of one `<entity>` element's text, or of one of its properties'. Invariant:
/// equal `hash` and equal text are equal content, so an entity with a `cached` entry is that entry's entity (a
/// property with a `cachedProperty`, that entry's property), placed at this element.
package struct EntitySource {
    /// A hash of the source text, start tag to end tag.
    package var hash: Int?
    /// The same text, already built from another version of the bundle.
    package var cached: EntitySourceCache.Entry?
    package var cachedProperty: EntitySourceCache.PropertyEntry?
    /// This element's unknown XML, as positions in the tree builder's list.
    package var unknownXML: Range<Int> = 0..<0
    /// The text, when it may be cached (`EntitySourceCache.canCache`).
    package var cacheableText: [UInt8]?

    package init() {}
}

/// Builds a tree of the known vocabulary; unknown elements are recorded and their subtrees skipped,
/// so a hostile document cannot make the tree deep.
package final class TreeBuilder: NSObject, XMLParserDelegate {
    private let bytes: [UInt8]
    private let file: SourceFile
    /// Blanked repeats in the order of the text, each run's later repeats after its placeholder
    /// (`EntitySourceCache.BlankedText`); and the same for repeated properties inside entities that are not repeats.
    private let repeats: [EntitySourceCache.Repeat<(hash: Int, entry: EntitySourceCache.Entry)>]
    private let propertyRepeats: [EntitySourceCache.Repeat<EntitySourceCache.PropertyEntry>]
    /// The first repeat (of each list) whose `<` is not before the element read last: elements start in the
    /// order of the text, so each list is read once, in step with the parser.
    private var nextRepeat = 0
    private var nextPropertyRepeat = 0
    /// The entities whose properties were blanked: where each ends here, and its text in `original`.
    private let entitiesWithBlankedProperties: [Int: (end: Int, text: Range<Int>)]
    /// The file as written, when `bytes` has blanked properties.
    private let original: [UInt8]
    /// A run's placeholder stood where a lone repeat would not be placed (outside the `<model>`, or where entities
    /// do not belong), or a property's placeholder where the property would not be read as one: the text must be
    /// read again with a placeholder per repeat and no property blanked. Parsing stopped.
    package private(set) var foundRepeatOutOfPlace = false
    /// Whether entities built here may be cached: not when the file declares namespaces.
    private let caching: Bool
    private let lineStarts: [Int]
    /// Offsets of every `<`: a start tag's is the last one before where libxml2 reports the tag's end.
    private let tagOpenings: [Int]
    private var stack: [XMLNode] = []
    private var skipDepth = 0
    package var root: XMLNode?
    package var unknown: [UnknownXML] = []
    package var error: Error?

    /// `bytes`: the text read, `text.bytes` or that with its layout blanked; `original`: the file as written.
    package init(
        bytes: [UInt8], path: String, text: EntitySourceCache.BlankedText, original: [UInt8], caching: Bool = false
    ) {
        self.bytes = bytes
        file = SourceFile(path)
        self.repeats = text.repeats
        propertyRepeats = text.propertyRepeats
        entitiesWithBlankedProperties = text.entitiesWithBlankedProperties
        self.original = text.entitiesWithBlankedProperties.isEmpty ? [] : original
        self.caching = caching
        lineStarts = ByteSearch.lineStarts(in: bytes)
        tagOpenings = ByteSearch.offsets(of: UInt8(ascii: "<"), in: bytes)
    }

    package func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        let (location, offset) = startLocation(
            of: elementName, reportedLine: parser.lineNumber, reportedColumn: parser.columnNumber)
        let placeholder = Self.index(of: offset, in: repeats, from: &nextRepeat)
        if let placeholder, repeats[placeholder].runLength > 0,
            stack.count != 1 || elementName != "entity" || stack[0].name != "model"
        {
            foundRepeatOutOfPlace = true
            parser.abortParsing()
            return
        }
        if let k = Self.index(of: offset, in: propertyRepeats, from: &nextPropertyRepeat) {
            // Only a property of a top-level entity is read as one; anywhere else the text is read as written.
            guard stack.count == 2, stack[1].name == "entity" else {
                foundRepeatOutOfPlace = true
                parser.abortParsing()
                return
            }
            stack[1].children.append(placedProperty(propertyRepeats[k].cached, location: location, offset: offset))
            for member in propertyRepeats[(k + 1)..<(k + 1 + propertyRepeats[k].runLength)] {
                let (line, column) = lineAndColumn(ofOffset: member.offset)
                let location = SourceLocation(file: file, line: line, column: column)
                stack[1].children.append(placedProperty(member.cached, location: location, offset: member.offset))
            }
            skipDepth = 1
            return
        }
        guard let parent = stack.last else {
            if root != nil { return }
            let node = XMLNode(name: elementName, attributes: attributeDict, location: location, offset: offset)
            root = node
            stack.append(node)
            recordUnknownAttributes(of: node)
            return
        }
        guard XMLVocabulary.element(parent.name)?.children.contains(elementName) == true else {
            let (entity, property) = enclosingNames()
            unknown.append(
                UnknownXML(
                    kind: .element, name: elementName, element: parent.name, location: location, entity: entity,
                    property: property))
            skipDepth = 1
            return
        }
        if stack.count == 1, elementName == "entity", let placeholder, let line = location.line,
            let column = location.column
        {
            // A blanked repeat: placed from the cache.
            let (hash, entry) = repeats[placeholder].cached
            placeRepeat(
                hash: hash, entry: entry, location: location, line: line, column: column, offset: offset, in: parent)
            // The run's later repeats, each at its own `<`.
            for member in repeats[(placeholder + 1)..<(placeholder + 1 + repeats[placeholder].runLength)] {
                let (line, column) = lineAndColumn(ofOffset: member.offset)
                placeRepeat(
                    hash: member.cached.hash, entry: member.cached.entry,
                    location: SourceLocation(file: file, line: line, column: column), line: line, column: column,
                    offset: member.offset, in: parent)
            }
            skipDepth = 1
            return
        }
        let node = XMLNode(name: elementName, attributes: attributeDict, location: location, offset: offset)
        parent.children.append(node)
        stack.append(node)
        node.source.unknownXML = unknown.count..<unknown.count
        recordUnknownAttributes(of: node)
    }

    /// The index in `list` of the repeat whose `<` stands at `offset`, if one does; `next` moves past every repeat
    /// before it (their elements were read, or skipped with what holds them).
    private static func index<Cached>(
        of offset: Int, in list: [EntitySourceCache.Repeat<Cached>], from next: inout Int
    ) -> Int? {
        while next < list.count && list[next].offset < offset { next += 1 }
        return next < list.count && list[next].offset == offset ? next : nil
    }

    private func placedProperty(_ entry: EntitySourceCache.PropertyEntry, location: SourceLocation, offset: Int)
        -> XMLNode
    {
        // A property is written as the element its kind names: `attribute` or `relationship`.
        let node = XMLNode(name: entry.property.kindName, attributes: [:], location: location, offset: offset)
        node.source.cachedProperty = entry
        return node
    }

    /// A blanked repeat: placed from the cache.
    private func placeRepeat(
        hash: Int, entry: EntitySourceCache.Entry, location: SourceLocation, line: Int, column: Int, offset: Int,
        in parent: XMLNode
    ) {
        let node = XMLNode(name: "entity", attributes: [:], location: location, offset: offset)
        node.source.hash = hash
        node.source.cached = entry
        let unknownInside = entry.placedUnknownXML(in: file, line: line, column: column)
        node.source.unknownXML = unknown.count..<(unknown.count + unknownInside.count)
        unknown += unknownInside
        parent.children.append(node)
    }

    package func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        guard let node = stack.popLast() else { return }
        if stack.count == 1 && node.name == "entity" {
            let end = endOffset(of: node, line: parser.lineNumber, column: parser.columnNumber)
            if let blanked = entitiesWithBlankedProperties[node.offset] {
                // Its hash and cached text are the file's: what a repeat of it is found by.
                if end == blanked.end {
                    node.source.hash = EntitySourceCache.textHash(original, blanked.text)
                    if caching { node.source.cacheableText = Array(original[blanked.text]) }
                }
            } else if let end, bytes[node.offset..<end].suffix(9).elementsEqual("</entity>".utf8) {
                let range = node.offset..<end
                node.source.hash = EntitySourceCache.textHash(bytes, range)
                if caching && EntitySourceCache.canCache(bytes, range) {
                    node.source.cacheableText = Array(bytes[range])
                }
            }
            node.source.unknownXML = node.source.unknownXML.lowerBound..<unknown.count
        } else if caching, stack.count == 2, node.name == "attribute" || node.name == "relationship",
            stack[1].name == "entity", unknown.count == node.source.unknownXML.lowerBound,
            let end = endOffset(of: node, line: parser.lineNumber, column: parser.columnNumber),
            Self.isWholeElement(node.name, bytes, node.offset..<end),
            EntitySourceCache.canCache(bytes, node.offset..<end)
        {
            // A property with nothing unknown in it (what is unknown is reported with its entity's name) is cached.
            node.source.hash = EntitySourceCache.textHash(bytes, node.offset..<end)
            node.source.cacheableText = Array(bytes[node.offset..<end])
        }
    }

    /// Where an element read from its `<` ends: libxml2 reports an end tag's position (and an empty element's)
    /// just past its `>`. Nil without a start offset, or when the position is not past it.
    private func endOffset(of node: XMLNode, line: Int, column: Int) -> Int? {
        guard node.offset >= 0, line >= 1, line <= lineStarts.count, column >= 1 else { return nil }
        let end = lineStarts[line - 1] + column - 1
        return end - node.offset >= 3 && end <= bytes.count ? end : nil
    }

    /// Whether `bytes[range]` is one whole `name` element: an empty-element tag (its first `>` outside quotes is
    /// its last byte, after a `/`), or a start tag and content ending with the end tag. Anything else (libxml2
    /// placing the end elsewhere) is not cached, and a cached text is always a whole element.
    private static func isWholeElement(_ name: String, _ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        let tagEnd = bytes.withUnsafeBufferPointer { buffer -> Int? in
            var quote: UInt8 = 0  // the quote a value is open in, or none
            for i in range {
                let byte = buffer[i]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return i
                }
            }
            return nil
        }
        guard let tagEnd else { return false }
        if tagEnd == range.upperBound - 1 { return bytes[tagEnd - 1] == UInt8(ascii: "/") }
        return bytes[tagEnd - 1] != UInt8(ascii: "/")
            && bytes[range].suffix(name.utf8.count + 3).elementsEqual(("</" + name + ">").utf8)
    }

    package func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if error == nil { error = parseError }
    }

    package func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {
        error = NSError(domain: XMLParser.errorDomain, code: XMLParser.ErrorCode.entityRefLoopError.rawValue)
        parser.abortParsing()
    }

    private func recordUnknownAttributes(of node: XMLNode) {
        guard node.name == "model" || stack.count > 1 else { return }
        let known = XMLVocabulary.element(node.name)?.attributes ?? .none
        guard node.attributes.keys.contains(where: { !known.contains($0) }) else { return }
        let (entity, property) = enclosingNames()
        for name in node.attributes.keys.sorted() where !known.contains(name) {
            unknown.append(
                UnknownXML(
                    kind: .attribute, name: name, element: node.name, location: node.location, entity: entity,
                    property: property))
        }
    }

    /// The names of the entity and property around the element being read (the top of the stack).
    private func enclosingNames() -> (entity: String?, property: String?) {
        let entity = stack.first { $0.name == "entity" }?.attributes["name"]
        let property = stack.last { ["attribute", "relationship", "fetchedProperty"].contains($0.name) }?.attributes[
            "name"]
        return (entity, property)
    }

    /// XMLParser reports the position of a start tag's end; users want its `<`.
    private func startLocation(of name: String, reportedLine: Int, reportedColumn: Int) -> (SourceLocation, offset: Int)
    {
        let lineIndex = min(max(reportedLine, 1), lineStarts.count) - 1
        var offset = min(lineStarts[lineIndex] + max(reportedColumn - 1, 0), bytes.count - 1)
        // Attribute values hold no `<`: the last one at or before the reported end is the tag's own.
        let before = ByteSearch.countAtOrBefore(offset, in: tagOpenings)
        if before > 0, matches(name, at: tagOpenings[before - 1] + 1) {
            offset = tagOpenings[before - 1]
        } else {
            while offset >= 0 {
                if bytes[offset] == UInt8(ascii: "<") && matches(name, at: offset + 1) { break }
                offset -= 1
            }
        }
        guard offset >= 0 else { return (SourceLocation(file: file, line: reportedLine, column: nil), -1) }
        let (line, column) = lineAndColumn(ofOffset: offset)
        return (SourceLocation(file: file, line: line, column: column), offset)
    }

    /// The 1-based line and byte column of an offset in `bytes`: the line is the last line start at or before it
    /// (the first line starts at 0).
    private func lineAndColumn(ofOffset offset: Int) -> (line: Int, column: Int) {
        let line = ByteSearch.countAtOrBefore(offset, in: lineStarts)
        return (line, offset - lineStarts[line - 1] + 1)
    }

    private func matches(_ name: String, at offset: Int) -> Bool {
        var name = name
        let (count, same) = name.withUTF8 { name -> (Int, Bool) in
            guard let nameBase = name.baseAddress, offset >= 0, offset + name.count <= bytes.count else {
                return (name.count, false)
            }
            return (
                name.count,
                bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, nameBase, name.count) == 0 }
            )
        }
        guard same else { return false }
        if offset + count == bytes.count { return true }
        let next = bytes[offset + count]
        return XMLVocabulary.isSpace(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: ">")
    }
}
