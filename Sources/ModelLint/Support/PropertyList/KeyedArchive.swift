/// An NSKeyedArchiver archive read as the property-list graph it is (`$objects`, `$top`, UIDs), never through
/// NSKeyedUnarchiver: on Linux a missing key makes the unarchiver crash, and an archive is untrusted input.
/// Archived objects are addressed by their index in `$objects`; every accessor returns nil for anything that is
/// absent or of another shape.
package struct KeyedArchive: Sendable {
    package let plist: BinaryPropertyList
    /// `$objects`, as indices into the property list's object table.
    package let archived: [Int]
    /// The `root` object's index in `$objects`.
    package let root: Int

    package init(bytes: [UInt8]) throws {
        let plist = try BinaryPropertyList(bytes: bytes)
        func fail(_ what: String) -> BinaryPropertyList.ReadError { .init(description: "not a keyed archive: \(what)") }
        guard case .dictionary(let keys, let values) = plist.objects[plist.top] else {
            throw fail("the top is not a dictionary")
        }
        var top: [String: Int] = [:]
        for (k, v) in zip(keys, values) { if case .string(let name) = plist.objects[k] { top[name] = v } }
        guard let objectsRef = top["$objects"], case .array(let archived) = plist.objects[objectsRef] else {
            throw fail("no $objects")
        }
        guard let topRef = top["$top"], case .dictionary(let topKeys, let topValues) = plist.objects[topRef],
            let rootRef = zip(topKeys, topValues).first(where: { plist.objects[$0.0] == .string("root") })?.1,
            case .uid(let root) = plist.objects[rootRef], root < archived.count
        else { throw fail("no root object") }
        self.plist = plist
        self.archived = archived
        self.root = root
    }

    /// The property-list object an archived object is.
    package func value(_ object: Int) -> BinaryPropertyList.Object? {
        object >= 0 && object < archived.count ? plist.objects[archived[object]] : nil
    }

    /// An archived object's keyed fields (name -> property-list object index), when it is a keyed object.
    package func fields(_ object: Int) -> [String: Int]? {
        guard case .dictionary(let keys, let values)? = value(object) else { return nil }
        var fields: [String: Int] = [:]
        for (k, v) in zip(keys, values) { if case .string(let name) = plist.objects[k] { fields[name] = v } }
        return fields
    }

    /// One keyed field's property-list object index, found by comparing the object's keys in place: an archived
    /// object has a dozen keys, and most are read once, so neither the object nor its keys are decoded.
    package func field(_ object: Int, _ key: String) -> Int? {
        guard object >= 0 && object < archived.count else { return nil }
        return plist.objects.value(forKey: key, inDictionary: archived[object])
    }

    /// Whether an archived object is a string equal to `text`, compared in place.
    package func isText(_ object: Int, _ text: String) -> Bool {
        object >= 0 && object < archived.count && plist.objects.isString(archived[object], equalTo: text)
    }

    /// The archived object a field refers to (through its UID); nil for `$null` and non-references.
    package func reference(_ object: Int, _ key: String) -> Int? {
        guard let ref = field(object, key), let target = plist.objects.uid(ref), target != 0, target < archived.count
        else { return nil }
        return target
    }

    /// Whether an archived object's class is `name`, compared in place.
    package func isClass(_ object: Int, _ name: String) -> Bool {
        guard let cls = reference(object, "$class"), let nameRef = field(cls, "$classname") else { return false }
        return plist.objects.isString(nameRef, equalTo: name)
    }

    package func className(_ object: Int) -> String? {
        guard let cls = reference(object, "$class"), let nameRef = field(cls, "$classname"),
            case .string(let name) = plist.objects[nameRef]
        else { return nil }
        return name
    }

    /// A field's value when it is stored inline or referenced: strings, numbers, Booleans and data.
    package func scalar(_ object: Int, _ key: String) -> BinaryPropertyList.Object? {
        guard let ref = field(object, key) else { return nil }
        if let target = plist.objects.uid(ref) { return target == 0 ? nil : value(target) }
        return plist.objects[ref]
    }

    package func string(_ object: Int, _ key: String) -> String? {
        if case .string(let s)? = scalar(object, key) { return s }
        return nil
    }

    package func integer(_ object: Int, _ key: String) -> Int64? {
        switch scalar(object, key) {
        case .integer(let i)?: return i
        case .bool(let b)?: return b ? 1 : 0
        default: return nil
        }
    }

    package func bool(_ object: Int, _ key: String) -> Bool? { integer(object, key).map { $0 != 0 } }

    package func data(_ object: Int, _ key: String) -> [UInt8]? {
        if case .data(let d)? = scalar(object, key) { return d }
        return nil
    }

    /// A referenced string object's text (an archived object that is a string).
    package func text(_ object: Int) -> String? {
        if case .string(let s)? = value(object) { return s }
        return nil
    }

    /// The members of an archived NSArray / NSSet (`NS.objects`), as archived-object indices.
    package func members(_ object: Int) -> [Int] {
        guard let ref = field(object, "NS.objects") else { return [] }
        switch plist.objects[ref] {
        case .array(let items), .set(let items):
            return items.compactMap {
                guard let u = plist.objects.uid($0), u != 0, u < archived.count else { return nil }
                return u
            }
        default: return []
        }
    }

    /// The pairs of an archived NSDictionary (`NS.keys`, `NS.objects`), as archived-object indices; also of an
    /// `NSKnownKeysDictionary1` (a store's cached model): keys in its mapping strategy, values in `values`.
    package func entries(_ object: Int) -> [(key: Int, value: Int)] {
        if isClass(object, "NSKnownKeysDictionary1") {
            guard let strategy = reference(object, "searchMapping"), let keys = reference(strategy, "keys"),
                let values = reference(object, "values")
            else { return [] }
            let empty = reference(object, "emptyToken").flatMap(text)
            return zip(members(keys), members(values)).filter { empty == nil || text($0.1) != empty }.map {
                ($0.0, $0.1)
            }
        }
        guard let k = field(object, "NS.keys"), let v = field(object, "NS.objects"),
            case .array(let keys) = plist.objects[k], case .array(let values) = plist.objects[v]
        else { return [] }
        func uid(_ ref: Int) -> Int? {
            guard let u = plist.objects.uid(ref), u != 0, u < archived.count else { return nil }
            return u
        }
        return zip(keys, values).compactMap { pair in uid(pair.0).flatMap { key in uid(pair.1).map { (key, $0) } } }
    }
}
