#!/usr/bin/env bash
# Mutation check (local, not CI): breaks one guard of the library at a time, in a temporary
# clone of the committed HEAD, runs the tests that should notice, and prints a table of
# caught / NOT CAUGHT. A guard no test holds in place shows up as NOT CAUGHT.
#
#   Scripts/mutations.sh             every mutation in the list below
#   Scripts/mutations.sh REGEX       only those whose name matches REGEX
#
# Needs git, the Swift toolchain and python3; the PostgresStore mutations need servers
# (RAWCODING_POSTGRES, RAWCODING_POSTGRES_RESTARTABLE and RAWCODING_POSTGRES_RESTART, as
# .ci/run sets them), or their tests skip and the mutations show as not caught. One full debug
# build, then a few seconds per mutation (an incremental build and the named tests): about two
# minutes on two cores. Tests that hang under a mutation are stopped after 300 s and count as
# catching it. Exit status: 0 when every mutation was caught, 1 when one was not, 2 when the
# list no longer fits the code (a line not found, a mutation that does not compile) or the
# unmutated tests fail.
#
# Adding a guard to the library? Add its mutation here: the smallest one-line change that
# disables it, and the tests that must fail.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
only=${1:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/rawcoding-mutations.XXXXXX")
trap 'rm -rf "$work"' EXIT
clone="$work/clone"
export SWIFT_BACKTRACE=enable=no  # a crash is a catch; symbolicating it only costs time

# One mutation per block: its name, the file, an anchor line the mutated line follows (the
# first line containing `line` at or after the first line containing `after`), the text it
# replaces in that line, and a --filter for the tests that must fail.
mutations=$(cat <<'LIST'
name: plain stored decode keeps no unknown key of an unopened object
file: Sources/RawCoding/Value/Coding/ScanDecodingNode.swift
after: func askedForEveryKey(at token: Int) -> Bool
line: guard let marks, marks[token] else { return false }
becomes: guard let marks, marks[token] else { return true }
tests: ScanEvolutionTests

name: plain stored decode keeps no key the model did not ask for
file: Sources/RawCoding/Value/Coding/ScanDecodingNode.swift
after: func askedForEveryKey(at token: Int) -> Bool
line: guard marks[position], askedForEveryKey(at: position + 1) else { return false }
becomes: guard askedForEveryKey(at: position + 1) else { return false }
tests: ScanEvolutionTests

name: the scan's arrays of decodable elements decode each at the first index's path
file: Sources/RawCoding/Value/Coding/ScanDecodingNode.swift
after: extension Array: ScanDecodableArray where Element: Decodable {
line: step: .index($2)
becomes: step: .index($2 & 0)
tests: JSONScanDecodingTests

name: short decimals are written without checking that they read back
file: Sources/RawCoding/Formats/Shared/NumberText.swift
after: for places in 1...3 {
line: guard scaled / scale == magnitude else { continue }
becomes: guard scaled / scale == magnitude || places == 3 else { continue }
tests: JSONWriterTests

name: the scan hashes short keys at a document's start in another byte order
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: // The same value, byte by byte, at a document's start.
line: for index in range { first |= UInt64(bytes[index]) << UInt64((index - range.lowerBound) * 8) }
becomes: for index in range { first = first << 8 | UInt64(bytes[index]) }
tests: JSONScanDecodingTests

name: the scan reuses a decoder a model still holds
file: Sources/RawCoding/Value/Coding/ScanDecodingNode.swift
after: func recycle(_ child: inout ScanDecodingNode) {
line: guard isKnownUniquelyReferenced(&child) else { return }
becomes: guard isKnownUniquelyReferenced(&child) || true else { return }
tests: JSONScanDecodingTests

name: the snake-case key table answers a key of another string's length from its slot
file: Sources/RawCoding/Value/Coding/KeyConversion.swift
after: func converted(_ key: String) -> String? {
line: if Self.sameBits(entries[slot].key, key) { return entries[slot].converted }
becomes: if Self.sameBits(entries[slot].key, key) || entries[slot].key.utf8.count == key.utf8.count { return entries[slot].converted }
tests: SinkEncodingTests|SnakeCaseScanTests

name: the sink writes a snake-case key without checking that it reads back
file: Sources/RawCoding/Value/Coding/KeyConversion.swift
after: // Read back into the rest of the buffer
line: return .readsBackOtherwise
becomes: return hasUpper ? .converted(String(decoding: UnsafeBufferPointer(rebasing: buffer[..<converted]), as: UTF8.self)) : .unchanged
tests: SinkEncodingTests|SnakeCaseScanTests

name: the sink converts the keys of [String: Value] dictionaries to snake case
file: Sources/RawCoding/Value/Coding/SinkEncodingNode.swift
after: func box<Value: Encodable>(_ value: Value, step: @autoclosure () -> CodingPathStep?) throws {
line: if _slowPath(context.convertsKeys), let dictionary = context.stringKeyedDictionary(value) {
becomes: if _slowPath(context.convertsKeys && false), let dictionary = context.stringKeyedDictionary(value) {
tests: SinkEncodingTests

name: JSON strings take any character after a backslash as an escape
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: static func unescaped(_ escape: UInt8) -> UInt8? {
line: default: nil
becomes: default: escape
tests: JSONScanDecodingTests|JSONReaderTests

name: set takes any payload for its own last write
file: Sources/RawCodingStores/Store/KeyValueStore+WriteBack.swift
after: static func base<Value>(
line: guard let entry, entry.tree == tree else { return nil }
becomes: guard let entry else { return nil }
tests: WriteBackTests

name: set's own last write remembered without its unknown keys
file: Sources/RawCodingStores/Store/KeyValueStore+WriteBack.swift
after: func writeBack<Value: Encodable>(
line: tree, as: Value.self, keeping: base.unknownKeys, form: form, forKey: key, in: self)
becomes: tree, as: Value.self, keeping: .none, form: form, forKey: key, in: self)
tests: WriteBackTests

name: remembered key orders used for other keys
file: Sources/RawCoding/Formats/Shared/KeyOrder.swift
after: mutating func known(_ key: (Int) -> String) -> [Int]? {
line: for slot in lists.indices where KeyOrder.matches(lists[slot].keys, key) {
becomes: for slot in lists.indices where !lists[slot].keys.isEmpty {
tests: JSONWriterTests|SinkEncodingTests

name: RawCodable decodes with JSON whatever codec the type chose
file: Sources/RawCoding/Container/RawCodable.swift
after: static func decodedValue(
line: guard !traits.hasCustomRawValueCodec else {
becomes: guard true else {
tests: RawCodableTests

name: encodeStored takes the codec's own encode with unknown keys to keep
file: Sources/RawCoding/Evolution/Codec+Evolution.swift
after: public func encodeStored<Value: Encodable>(
line: if unknownKeys.isEmpty, self is any EncodesAsStored {
becomes: if self is any EncodesAsStored {
tests: EvolutionPropertyTests|UnknownKeysTests

name: plain stored decode from a tree keeps no key the model did not ask for
file: Sources/RawCoding/Evolution/TreeMarks.swift
after: private static func askedForEveryKey(in value: StoredValue, mark: TreeMark?) -> Bool {
line: guard mark.asked & (1 << position) != 0,
becomes: guard true,
tests: TreeMarksTests

name: plain stored decode from a tree ignores missed keys
file: Sources/RawCoding/Value/Coding/StoredDecodingContainers.swift
after: func entry(_ key: Key) throws -> StoredValue {
line: node.context.marks?.missedKeys += 1
becomes: _ = node
tests: TreeMarksTests

name: JSON scan nesting limit removed
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: private mutating func run()
line: guard depth <= maximumDepth else
becomes: guard true else
tests: JSONScanDecodingTests

name: JSON scan value count limit removed
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: private mutating func run()
line: guard valueCount <= limits.maximumValueCount, index < bytes.count else
becomes: guard index < bytes.count else
tests: JSONScanDecodingTests

name: JSON scan takes repeated keys
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: private mutating func run()
line: if isObject, tokens[closed].length > 1, hasRepeatedKey(closed)
becomes: if false
tests: JSONScanDecodingTests

name: JSON scan takes invalid UTF-8 in keys
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: private mutating func scanKey(
line: ascii || UTF8Validation.firstInvalidByte(in: bytes, index + 1..<end) == nil
becomes: true
tests: JSONScanDecodingTests

name: JSON scan misses repeated keys in large objects
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: private mutating func keyHashesMeetInTable(
line: if table[slot] == hash { return true }
becomes: if false { return true }
tests: JSONScanDecodingTests

name: JSON scan takes non-ASCII text before a string's quote as ASCII
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: private func plainString(from start: Int)
line: high |= word
becomes: high |= 0
tests: JSONScanDecodingTests

name: JSON scan takes non-ASCII words in strings as ASCII
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: // A whole word of plain bytes.
line: high |= word
becomes: high |= 0
tests: JSONScanDecodingTests

name: the tool's piece writer drops a failure to write
file: Sources/RawCodingCommandLine/ToolIO.swift
after: private func enqueue(
line: self.failure = error
becomes: _ = error
tests: StreamingXMLConversionTests

name: encoding sink takes repeated keys
file: Sources/RawCoding/Formats/Shared/SinkContainers.swift
after: mutating func sortEntries(
line: guard !repeats else { return false }
becomes: guard true else { return false }
tests: SinkEncodingTests

name: encoding sink skips canonical key order
file: Sources/RawCoding/Formats/Shared/SinkContainers.swift
after: mutating func sortEntries(
line: if !order.indices.elementsEqual(order) {
becomes: if false {
tests: SinkEncodingTests

name: encoding sink appends a second single value
file: Sources/RawCoding/Value/Coding/SinkEncodingNode.swift
after: func beginSingle()
line: guard state == .empty else { throw context.abandon() }
becomes: guard true else { throw context.abandon() }
tests: SinkEncodingTests

name: encoding sink value count limit removed
file: Sources/RawCoding/Value/Coding/SinkEncodingNode.swift
after: static func encode<Value: Encodable, Sink: EncodingSink>(
line: guard !context.abandoned, context.sink.valueCount <= limits.maximumValueCount else { return nil }
becomes: guard !context.abandoned else { return nil }
tests: SinkEncodingTests

name: encoding sink size limit removed
file: Sources/RawCoding/Codecs/Codec.swift
after: func encodeDirectly<Value: Encodable, Sink: EncodingSink>(
line: return count <= limits.maximumInputBytes
becomes: return true
tests: SinkEncodingTests

name: encoding sink nesting limit removed
file: Sources/RawCoding/Value/Coding/SinkEncodingNode.swift
after: func checkNesting()
line: guard depth < context.options.maximumDepth, context.stack.allows(depth: depth + 1) else {
becomes: guard context.stack.allows(depth: depth + 1) else {
tests: SinkEncodingTests

name: evolving decode from the scan ignores missed keys
file: Sources/RawCoding/Evolution/JSONCodec+ScanEvolution.swift
after: private func decodedWithNothingToFillOrKeep<Value: Decodable>(
line: guard context.missedKeys == 0, !keepingUnknownKeys || context.askedForEveryKey(at: 0) else {
becomes: guard !keepingUnknownKeys || context.askedForEveryKey(at: 0) else {
tests: ScanEvolutionTests

name: evolving decode from the scan misses unknown keys
file: Sources/RawCoding/Evolution/JSONCodec+ScanEvolution.swift
after: func hasUnknownKeys(at token: Int, ledger: KeyLedger) -> Bool {
line: return true
becomes: return false
tests: ScanEvolutionTests

name: scan keyed container does not count missed keys
file: Sources/RawCoding/Value/Coding/ScanDecodingNode.swift
after: func entry(_ key: Key) throws -> Int {
line: node.context.missedKeys += 1
becomes: _ = 0
tests: ScanEvolutionTests

name: streaming XML hands on entries still to be sorted
file: Sources/RawCoding/Formats/Shared/SinkContainers.swift
after: mutating func takeFinished(from output: OutputBuffer, minimum: Int) -> [UInt8] {
line: let end = entries.first?.start ?? output.count
becomes: let end = output.count
tests: StreamingXMLConversionTests|StreamingJSONConversionTests

name: streaming XML takes a repeated key
file: Sources/RawCoding/Formats/JSON/JSONToXMLPropertyList.swift
after: // A repeated key: the tree keeps the last value in the first one's place.
line: guard sink.endDictionary() else { throw .leftToTree }
becomes: _ = sink.endDictionary()
tests: StreamingXMLConversionTests

name: streaming XML output size limit removed
file: Sources/RawCoding/Formats/JSON/JSONToXMLPropertyList.swift
after: func hand(_ piece: [UInt8]) throws(Stop) {
line: guard emitted <= limits.maximumInputBytes else { throw .leftToTree }
becomes: guard true else { throw .leftToTree }
tests: StreamingXMLConversionTests

name: the scan leaves an escaped string with plain bytes in the input's last eight
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: private func escapedString(from start: Int) -> (string: String, end: Int)? {
line: guard byte >= 0x20 else { return nil }  // a control character
becomes: guard byte >= 0x20 && false else { return nil }  // a control character
tests: JSONScanTailTests

name: a key lookup from a hint does not wrap around to the keys before it
file: Sources/RawCoding/Value/StoredDictionary.swift
after: func position(of key: String, startingAt hint: Int) -> Int? {
line: for position in 0..<hint where KeyIndex.same(keys[position], key) { return position }
becomes: for position in 0..<0 where KeyIndex.same(keys[position], key) { return position }
tests: KeyLookupTests

name: a binary property list's dictionary takes a key of any kind as its text
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after: mutating func dictionary(at start: Int, marker: UInt8) throws(FormatFailure) -> StoredValue {
line: guard case .string(let key) = keyObject else { throw keyFailure(keyObject, at: keyOffset, in: start) }
becomes: let key: String; if case .string(let text) = keyObject { key = text } else { key = "\(keyObject)" }
tests: BinaryPropertyListTests

name: key comparison takes one small string for the flag of both
file: Sources/RawCoding/Value/StoredDictionary.swift
after: static func same(_ lhs: String, _ rhs: String) -> Bool {
line: if left.1 & right.1 & smallStringFlag != 0 { return false }
becomes: if (left.1 | right.1) & smallStringFlag != 0 { return false }
tests: StoredValueTests

name: streaming binary skips the mapping for strings under --restore
file: Sources/RawCodingCommandLine/Conversion.swift
after: mutating func streamToBinary(
line: stringsUnchanged: restore.isEmpty,
becomes: stringsUnchanged: true,
tests: StreamingXMLConversionTests

name: JSON object nesting limit removed
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after: mutating func parseObject()
line: try enterContainer()
becomes: depth += 1; index += 1
tests: NestingLimitTests

name: JSON array nesting limit removed
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after: mutating func parseArray()
line: try enterContainer()
becomes: depth += 1; index += 1
tests: NestingLimitTests|HostileInputTests

name: JSON nesting limit off by one
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after: mutating func enterContainer()
line: guard depth <= maximumDepth else
becomes: guard depth <= maximumDepth + 1 else
tests: NestingLimitTests

name: XML dict nesting limit removed
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListReader.swift
after: mutating func parseDictionary(
line: try enterContainer(at: start)
becomes: depth += 1
tests: NestingLimitTests

name: XML array nesting limit removed
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListReader.swift
after: mutating func parseArray(
line: try enterContainer(at: start)
becomes: depth += 1
tests: NestingLimitTests|HostileInputTests

name: XML nesting limit off by one
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListReader.swift
after: mutating func enterContainer(
line: guard depth <= maximumDepth else
becomes: guard depth < maximumDepth else
tests: NestingLimitTests

name: binary nesting limit removed
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after: mutating func container(
line: if inProgress[number] || depth >= maximumDepth {
becomes: if inProgress[number] {
tests: NestingLimitTests

name: binary object reference bound off by one
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after: func reference(at offset: Int)
line: guard reference < UInt64(objectCount) else {
becomes: guard reference <= UInt64(objectCount) else {
tests: HostileInputTests

name: binary root object bound off by one
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after:
line: guard rootObject < objectCount else {
becomes: guard rootObject <= objectCount else {
tests: HostileInputTests

name: binary cycle marking removed
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after: mutating func container(
line: inProgress[number] = true
becomes: inProgress[number] = false
tests: HostileInputTests|BinaryPropertyListTests

name: binary value count unchecked
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after: mutating func count(
line: guard valueCount <= valueBound else {
becomes: guard valueCount <= valueBound || values > 0 else {
tests: HostileInputTests|BinaryPropertyListTests

name: binary UTF-16 string extent unchecked
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after:
line: try checkExtent(count, unit: 2, from: contents, object: start, what: "UTF-16 string")
becomes: _ = count
tests: HostileInputTests

name: binary date range unchecked
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListReader.swift
after:
line: guard seconds.isFinite, seconds.magnitude <= Spec.largestDateOffset else {
becomes: guard seconds.isFinite else {
tests: BinaryPropertyListTests

name: readers' input size limit unchecked
file: Sources/RawCoding/Formats/Shared/TreeFormat.swift
after:
line: guard data.count <= limits.maximumInputBytes else {
becomes: guard data.count >= 0 else {
tests: JSONReaderTests|XMLPropertyListTests

name: JSON value count unchecked
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after:
line: if valueCount > limits.maximumValueCount || index >= bytes.count { throw valueFailure() }
becomes: if index >= bytes.count { throw valueFailure() }
tests: JSONReaderTests

name: XML value count unchecked
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListReader.swift
after:
line: if valueCount > limits.maximumValueCount { throw limits.valueCountFailure(at: position(start)) }
becomes: if valueCount < 0 { throw limits.valueCountFailure(at: position(start)) }
tests: XMLPropertyListTests

name: JSON trailing commas accepted
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after: mutating func parseArray()
line: if byte == UInt8(ascii: ",") { continue }
becomes: if byte == UInt8(ascii: ",") { skipWhitespace(); if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; break }; continue }
tests: JSONReaderTests

name: JSON lone low surrogate accepted
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after: func parseUnicodeEscape(
line: case 0xDC00...0xDFFF:
becomes: case 0xDC00...0xDFFF where high == 0:
tests: JSONReaderTests

name: trap guard never releases a type (encoding)
file: Sources/RawCoding/Container/RecursionGuard.swift
after: static func whileActive<Result>(
line: case .encoding: state.encoding[id, default: 1] -= 1
becomes: case .encoding: state.encoding[id, default: 1] -= 0
tests: RecursionGuardStateTests|RecursionTrapTests

name: trap guard never releases a type (decoding)
file: Sources/RawCoding/Container/RecursionGuard.swift
after: static func whileActive<Result>(
line: case .decoding: state.decoding[id, default: 1] -= 1
becomes: case .decoding: state.decoding[id, default: 1] -= 0
tests: RecursionGuardStateTests|RecursionTrapTests

name: trap guard never parks (reports inside codec calls)
file: Sources/RawCoding/Container/RecursionGuard.swift
after: static func park(
line: if state.throwingScopes > 0 {
becomes: if state.throwingScopes > 1_000 {
tests: RecursionGuardStateTests|RecursionTrapTests

name: trap guard keeps a parked failure after handing it over
file: Sources/RawCoding/Container/RecursionGuard.swift
after:
line: return state.parkedFailure.take()
becomes: return state.parkedFailure
tests: RecursionGuardStateTests

name: trap guard leaves codec scopes open
file: Sources/RawCoding/Container/RecursionGuard.swift
after: private static func scope<Result>(
line: state.throwingScopes -= 1
becomes: state.throwingScopes -= 0
tests: RecursionGuardStateTests

name: snake-case key decoding does nothing
file: Sources/RawCoding/Value/Coding/DecodingNode.swift
after:
line: case .snakeCase: newKey = KeyConversion.fromSnakeCase(key)
becomes: case .snakeCase: newKey = key
tests: EngineOptionsTests

name: key strategies rename dictionary keys when decoding
file: Sources/RawCoding/Value/Coding/DecodingNode+Unbox.swift
after:
line: node.keepsKeys = true
becomes: node.keepsKeys = false
tests: EngineOptionsTests

name: key strategies rename dictionary keys when encoding
file: Sources/RawCoding/Value/Coding/EncodingNode.swift
after:
line: if !context.usesDefaultKeys, let dictionary = value as? any StringKeyedDictionary {
becomes: if context.usesDefaultKeys, let dictionary = value as? any StringKeyedDictionary {
tests: EngineOptionsTests

name: canonical key order reversed
file: Sources/RawCoding/Formats/Shared/KeyOrder.swift
after:
line: if order != 0 { return order < 0 }
becomes: if order != 0 { return order > 0 }
tests: JSONWriterTests|GoldenFileTests|GoldenOracleTests

name: CI=1 not recognised
file: Sources/RawCodingTesting/RecordPolicy.swift
after: static func isSet(
line: !["", "0", "false", "no"].contains(value.lowercased())
becomes: value == "true"
tests: ExpectRoundTripTests

name: CI does not stop recording
file: Sources/RawCodingTesting/RecordPolicy.swift
after:
line: return RecordPolicy(mode: .never, reason: "\(name)=\(ci) is set", problem: problem)
becomes: return RecordPolicy(mode: requested?.mode ?? .missing, reason: "\(name)=\(ci) is set", problem: problem)
tests: ExpectRoundTripTests

name: binary writer writes dates its reader refuses
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListWriter.swift
after: static func holds(_ date: Date) -> Bool
line: return seconds.isFinite && seconds.magnitude <= BinaryPropertyListSpec.largestDateOffset
becomes: return true
tests: ReadBackTests|SinkEncodingTests

name: writers' output size unchecked
file: Sources/RawCoding/Formats/Shared/WriteCheck.swift
after: package func writeTree(
line: guard bytes.count <= limits.maximumInputBytes else {
becomes: guard bytes.count >= 0 else {
tests: RawCodableTests|SymmetricLimitTests

name: writers' value count unchecked (JSON, XML)
file: Sources/RawCoding/Formats/Shared/WriteCheck.swift
after:
line: guard !countsValues || count <= limits.maximumValueCount else {
becomes: guard !countsValues || count >= 0 else {
tests: SymmetricLimitTests

name: binary writer's value count unchecked
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListWriter.swift
after: mutating func add(_ value: StoredValue)
line: if places > maximumPlaces { throw placesFailure() }
becomes: if places < 0 { throw placesFailure() }
tests: SymmetricLimitTests

name: XML codec drops a date's fraction
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListWriter.swift
after: static func loss(writing date: Date)
line: guard seconds.isFinite, seconds != seconds.rounded(.down) else { return nil }
becomes: guard seconds.isNaN else { return nil }
tests: CodecRoundTripTests|SymmetricLimitTests

name: property-list writers round a decimal
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListWriter.swift
after:
line: guard let double = number.exactDouble else { throw .unwritable(number.propertyListRefusal) }
becomes: guard let double = Optional(number.nearestDouble) else { throw .unwritable(number.propertyListRefusal) }
tests: ReadBackTests

name: JSON reads a 16-17 digit number a Double rounds as that Double
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after:
line: digitCount <= 15
becomes: digitCount <= 17
tests: JSONReaderTests|ReadBackTests

name: JSON refuses integers beyond 64 bits
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after:
line: if let decimal = NumberParsing.exactDecimal(text) { return .decimal(decimal) }
becomes: if let decimal = NumberParsing.exactDecimal(text), text.isEmpty { return .decimal(decimal) }
tests: JSONReaderTests|ReadBackTests|ConvertToolTests

name: init?(rawValue:) drops a read failure silently
file: Sources/RawCoding/Container/RecursionGuard.swift
after: static func reportFailedRead(
line: } else if !text.isEmpty {
becomes: } else if text.isEmpty {
tests: RawCodableTests

name: default diagnostics handler prints every repeat
file: Sources/RawCoding/Errors/RawCodingDiagnostics.swift
after:
line: guard global.isFirst(message) else { return }
becomes: guard global.isFirst(message) || !message.isEmpty else { return }
tests: TrapProcessTests

name: snake case writes keys it cannot read back
file: Sources/RawCoding/Codecs/JSONCodec.swift
after:
line: if readBack != key.stringValue {
becomes: if readBack.isEmpty {
tests: JSONCodecOptionsTests

name: default filling replaces a present key
file: Sources/RawCoding/Evolution/EvolvingDecoder.swift
after: func filled<T>(
line: guard place.defaults?.children != nil, !base.contains(key),
becomes: guard place.defaults?.children != nil,
tests: DefaultFillingTests|RecipeTests

name: unknown keys not written back
file: Sources/RawCoding/Evolution/StoredUnknownKeys.swift
after: func applied(to tree: StoredValue)
line: for (key, value) in values where dictionary[key] == nil {
becomes: for (key, value) in values where dictionary[key] == nil && false {
tests: UnknownKeysTests|EvolutionPropertyTests

name: a payload without a version read as the current version
file: Sources/RawCoding/Evolution/VersionEnvelope.swift
after: static func open(
line: return (1, tree, false)
becomes: return ((type as? any StoredVersioned.Type)?.storedVersion ?? 1, tree, false)
tests: MigrationTests|EvolutionFixtureTests

name: a newer stored version accepted
file: Sources/RawCoding/Evolution/StoredEvolution.swift
after: static func migrate(
line: guard version <= current else {
becomes: guard version <= current || true else {
tests: MigrationTests

name: a dictionary property's keys taken for unknown
file: Sources/RawCoding/Evolution/EvolvingDecoding.swift
after: if Self.isLeaf(type) {
line: place.ledger?.knowsAll = true
becomes: _ = place
tests: UnknownKeysTests

name: a typed step drops the keys the old type did not know
file: Sources/RawCoding/Evolution/StoredMigration.swift
after: public static func typed<
line: tree = old.unknownKeys.applied(to: new)
becomes: tree = new
tests: UnknownKeysTests

name: TEST_RUNNER_CI not taken for CI
file: Sources/RawCodingTesting/RecordPolicy.swift
after: static func ciVariable(
line: for name in [FixtureEnvironment.ci, FixtureEnvironment.prefix + FixtureEnvironment.ci] {
becomes: for name in [FixtureEnvironment.ci] {
tests: HistoricalFixtureTests

name: a changed historical fixture not noticed
file: Sources/RawCodingTesting/ExpectDecodes.swift
after: mutating func decodeHistorical<
line: if let sha256, sha256.lowercased() != digest {
becomes: if let sha256, sha256.lowercased() != digest, false {
tests: HistoricalFixtureTests

name: no Fixtures/ search without a Package.swift
file: Sources/RawCodingTesting/FixtureFile.swift
after: } else if let root = packageRoot(above: callerFilePath) {
line: nearestFixturesFolder(above: callerFilePath)
becomes: Optional<URL>.none
tests: HistoricalFixtureTests

name: artifacts not written on failure
file: Sources/RawCodingTesting/FixtureCheck.swift
after: mutating func fail(_ message: String, actual: Data?
line: guard let actual, let (name, folder) = environment.lookup(FixtureEnvironment.artifacts) else {
becomes: guard let actual, let (name, folder) = environment.lookup("NO_SUCH_VARIABLE") else {
tests: HistoricalFixtureTests
name: streaming conversion errors lose their path
file: Sources/RawCoding/Formats/JSON/JSONParser+Streaming.swift
after: var located = error
line: for step in open.reversed().compactMap({ $0.step(in: bytes) }) { located = located.inside(step) }
becomes: for step in [TreePathStep]() { located = located.inside(step) }
tests: StreamingConversionTests

name: --restore data takes any Base64 string for data
file: Sources/RawCodingCommandLine/FormatMapping.swift
after: mutating func scalar(
line: if restore.contains(.data), text.hasPrefix(Self.dataURLPrefix),
becomes: if restore.contains(.data), text.hasPrefix("") || text.hasPrefix(Self.dataURLPrefix),
tests: ToolTests

name: fixtures --fix rewrites pinned fixtures
file: Sources/RawCodingCommandLine/FixturesCommand.swift
after: static func run(
line: if fix, pins.contains(SHA256.hex(of: data)) {
becomes: if fix, pins.contains(SHA256.hex(of: data)), false {
tests: FixturesCheckToolTests

name: the tool lets a binary plist's shared containers expand by default
file: Sources/RawCodingCommandLine/ToolLimits.swift
after: enum ToolLimits {
line: maximumValueCount: 1 << 27)
becomes: maximumValueCount: 1 << 27, maximumExpansion: 1 << 20)
tests: ExpansionBombTests

name: FileStore keeps a crashed writer's temporary files
file: Sources/RawCodingStores/Adapters/FileStore.swift
after: private func removeLeftoverTemporaryFiles()
line: where name.hasPrefix(FileStoreNames.temporaryPrefix)
becomes: where name.hasPrefix(".never-")
tests: FileStoreProcessTests|AdapterTests

name: FileStore's lock is shared, not exclusive
file: Sources/RawCodingStores/Adapters/POSIXFiles.swift
after: static func withExclusiveLock<Result>(
line: while flock(descriptor, LOCK_EX) != 0 {
becomes: while flock(descriptor, LOCK_SH) != 0 {
tests: FileStoreProcessTests|StoreContractTests

name: FileStore does not notice other processes' changes
file: Sources/RawCodingStores/Adapters/FileStoreWatcher.swift
after: for name in changed {
line: broadcaster.send(forKey: FileStoreNames.key(forAnyStoreFile: name), from: nil)
becomes: _ = name
tests: FileStoreProcessTests

name: FileStore names canonically equal keys apart
file: Sources/RawCodingStores/Adapters/FileStore+Names.swift
after: func fileName(for key: String
line: for byte in key.precomposedStringWithCanonicalMapping.utf8 {
becomes: for byte in key.utf8 {
tests: StoreContractTests

name: FileStore names keys that differ in case alike
file: Sources/RawCodingStores/Adapters/FileStore+Names.swift
after: case UInt8(ascii: "A")...UInt8(ascii: "Z"):
line: name += "^"
becomes: name += ""
tests: AdapterTests

name: @Stored writes over an undecodable payload without setting it aside
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: private func commit(
line: unknownKeys: before.unknownKeys, settingAside: before.needsSetAside, form: before.form)
becomes: unknownKeys: before.unknownKeys, settingAside: false, form: before.form)
tests: DecodeFailureTests|StoreContractTests

name: an undecodable payload is not marked for setting aside
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: private func failed(_ error: RawCodingError) -> Loaded {
line: needsSetAside: true)
becomes: needsSetAside: false)
tests: DecodeFailureTests|StoreContractTests

name: a cached @Stored read ignores a change made elsewhere
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: private func currentValue() -> Value {
line: cached = flags.cached && !flags.stale
becomes: cached = flags.cached
tests: StoreContractTests|AdapterTests

name: a property's own write shows observers the old value
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: let changesBefore = flags.withLock { flags in
line: cachedValue = shown
becomes: _ = shown
tests: adapterMeetsTheContract

name: the broadcaster tells observers before the properties that cache the key
file: Sources/RawCodingStores/Store/StoreChangeBroadcaster.swift
after: let registration = Registration(
line: isPropertyCache: Self.registeringPropertyCache)
becomes: isPropertyCache: false)
tests: adapterMeetsTheContract

name: the version of an optional of a versioned model is looked up on Optional
file: Sources/RawCoding/Support/TypeTraits.swift
after: mayBeStringKeyedDictionary = wrapped is any StringKeyedDictionary.Type
line: versioned = type as? any StoredVersioned.Type ?? wrapped as? any StoredVersioned.Type
becomes: versioned = type as? any StoredVersioned.Type
tests: anOptionalOfAVersionedTypeMigratesAndRecordsItsVersion|anOptionalVersionedModelMigratesInAStore

name: StoredValue takes nil as a literal again, so an optional's nil is written as null
file: Sources/RawCoding/Value/StoredValue+Literals.swift
after: extension StoredValue: ExpressibleByBooleanLiteral {
line: public init(booleanLiteral value: Bool) { self = .bool(value) }
becomes: public init(booleanLiteral value: Bool) { self = .bool(value) } }; extension StoredValue: ExpressibleByNilLiteral { public init(nilLiteral: ()) { self = .null }
tests: adapterMeetsTheContract|nilRemovesTheKeyAndReadsAsTheDefault

name: set and @Stored store an optional's nil as null instead of removing the key
file: Sources/RawCodingStores/Store/KeyValueStore+WriteBack.swift
after: let encoded = try form.encode(value, keeping: base.unknownKeys, codec: codec)
line: tree = encoded.isNull ? nil : encoded
becomes: tree = encoded
tests: adapterMeetsTheContract|nilRemovesTheKeyAndReadsAsTheDefault

name: update stores an optional's nil as null instead of removing the key
file: Sources/RawCodingStores/Store/KeyValueStore+Typed.swift
after: new = try form.encode(value, keeping: unknownKeys, codec: codec)
line: tree = new.isNull ? nil : new
becomes: tree = new
tests: adapterMeetsTheContract

name: a @Stored write holds its read lock while the store notifies observers
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: try ownWrite { () throws(RawCodingError) in
line: tree = try store.writeBack(written, forKey: key, codec: codec, base: base, writing: writing)
becomes: tree = try flags.withLock { _ throws(RawCodingError) in try store.writeBack(written, forKey: key, codec: codec, base: base, writing: writing) }
tests: anObserverMayReadAndWritePropertiesWhileTheStoreNotifies

name: @Stored drops unknown keys on write-back
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: private func commit(
line: unknownKeys: before.unknownKeys, settingAside: before.needsSetAside, form: before.form)
becomes: unknownKeys: .none, settingAside: before.needsSetAside, form: before.form)
tests: ExampleTests

name: the iCloud key length is not checked
file: Sources/RawCodingStores/Store/KeyValueStoreLimits.swift
after: let keyBytes = key.utf8.count
line: if keyBytes > maximumKeyBytes {
becomes: if keyBytes > maximumKeyBytes * 2 {
tests: CloudLimitTests

name: the iCloud total counts a replaced value twice
file: Sources/RawCodingStores/Store/KeyValueStoreLimits.swift
after: let keyBytes = key.utf8.count
line: let total = sizes.values.reduce(0, +) - (sizes[key] ?? 0) + size
becomes: let total = sizes.values.reduce(0, +) + size
tests: CloudLimitTests

name: UserDefaultsStore does not flush writes on Linux
file: Sources/RawCodingStores/Adapters/UserDefaultsStore.swift
after: private func persist(_ key: String)
line: guard defaults.synchronize() else {
becomes: guard true else {
tests: ExampleTests

name: SQLiteStore update reads before taking the write lock
file: Sources/RawCodingSQLite/SQLiteConnection.swift
after: func inWriteTransaction<Result>(
line: try execute("BEGIN IMMEDIATE", key: key)
becomes: try execute("BEGIN DEFERRED", key: key)
tests: StoreProcessTests

name: Byte-comparing stores keep canonically equal keys apart
file: Sources/RawCodingStores/Store/StoreKey.swift
after: package static func composed(
line: key.utf8.allSatisfy { $0 < 0x80 } ? key : key.precomposedStringWithCanonicalMapping
becomes: key
tests: adapterMeetsTheContract

name: SQLiteStore leaves statements on a row
file: Sources/RawCodingSQLite/SQLiteConnection.swift
after: func run<Result>(
line: sqlite3_reset(handle)
becomes: _ = handle
tests: adapterMeetsTheContract

name: SQLiteStore does not roll back a failed update
file: Sources/RawCodingSQLite/SQLiteConnection.swift
after: func inWriteTransaction<Result>(
line: if sqlite3_get_autocommit(handle) == 0 {
becomes: if false {
tests: SQLiteStoreTests

name: SQLiteStore watcher reports no outside change
file: Sources/RawCodingSQLite/SQLiteWatcher.swift
after: private func poll(
line: for key in changed { broadcaster.send(forKey: key, from: nil) }
becomes: _ = changed
tests: StoreProcessTests

name: PostgresStore watcher skips every notification
file: Sources/RawCodingPostgres/PostgresWatcher.swift
after: private func wait(
line: if own[pid] != nil { continue }
becomes: continue
tests: StoreProcessTests

name: PostgresStore does not reconnect after a server restart
file: Sources/RawCodingPostgres/PostgresConnection.swift
after: func run(
line: PQreset(handle)
becomes: _ = handle
tests: PostgresStoreTests

name: PostgresStore does not roll back a failed update
file: Sources/RawCodingPostgres/PostgresConnection.swift
after: func inTransaction<Result>(
line: guard PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) != PQTRANS_IDLE else { throw error }
becomes: guard false else { throw error }
tests: PostgresStoreTests

name: OpenStep nesting limit removed
file: Sources/RawCoding/Formats/PropertyList/OpenStepPropertyListReader.swift
after: mutating func parseValue()
line: guard depth <= limits.effectiveDepth else
becomes: guard true else
tests: OpenStepPropertyListTests

name: OpenStep stack check removed
file: Sources/RawCoding/Formats/PropertyList/OpenStepPropertyListReader.swift
after: mutating func parseValue()
line: guard stack.allows(depth: depth) else
becomes: guard true else
tests: StackHeadroomTests

name: OpenStep value count unchecked
file: Sources/RawCoding/Formats/PropertyList/OpenStepPropertyListReader.swift
after: mutating func count(at start: Int)
line: if valueCount > limits.maximumValueCount
becomes: if false
tests: OpenStepPropertyListTests

name: OpenStep takes repeated keys
file: Sources/RawCoding/Formats/PropertyList/OpenStepPropertyListReader.swift
after: mutating func entries(until close: UInt8?
line: guard seen.insert(key).inserted else
becomes: guard true else
tests: OpenStepPropertyListTests

name: CF$UID dictionaries written as dictionaries
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListWriter.swift
after: private mutating func addContainer(
line: if let uid = Spec.uidValue(of: dictionary)
becomes: if false, let uid = Spec.uidValue(of: dictionary)
tests: BinaryPropertyListTests

name: a keyed container over an encoded value drops the value
file: Sources/RawCoding/Value/Coding/EncodingNode.swift
after: func openKeyed()
line: case .single, .unkeyed:
becomes: case .single, .unkeyed: content = .keyed; return;
tests: ContainerMergingTests

name: a second nested container for a key starts over
file: Sources/RawCoding/Value/Coding/EncodingNode.swift
after: func nestedNode(forKey key: String
line: if let existing = pending.last(where: { $0.slot.isKey(key) }) { return existing.node }
becomes: if false, let existing = pending.last(where: { $0.slot.isKey(key) }) { return existing.node }
tests: ContainerMergingTests

name: a second single value replaces the first
file: Sources/RawCoding/Value/Coding/StoredEncodingContainers.swift
after: func store(_ value: StoredValue)
line: case .single, .keyed, .unkeyed:
becomes: case .single, .keyed, .unkeyed: content = .single(value); return;
tests: ContainerMergingTests

name: the sink keeps what a value wrote before its caught error
file: Sources/RawCoding/Value/Coding/SinkEncodingNode.swift
after: func runModelCode(
line: context.abandoned = true
becomes: _ = context
tests: SinkEncodingTests

name: the tree decoder decodes the static type
file: Sources/RawCoding/Value/Coding/DecodingNode+Unbox.swift
after: Value.self is any StringKeyedDecodableDictionary.Type
line: return try type.init(from: node)
becomes: return try Value(from: node)
tests: DynamicTypeDecodingTests

name: the JSON scan decodes the static type
file: Sources/RawCoding/Value/Coding/ScanDecodingNode.swift
after: node.keepsKeys = true
line: return try type.init(from: node)
becomes: return try Value(from: node)
tests: DynamicTypeDecodingTests

name: decodeStored decodes the static type
file: Sources/RawCoding/Evolution/EvolvingDecoding.swift
after: guard place.defaults?.children != nil || place.ledger != nil else { return try plain() }
line: return try type.init(from: EvolvingDecoder(
becomes: return try Value(from: EvolvingDecoder(
tests: DynamicTypeDecodingTests

name: a JSON number too small for a Double reads as zero
file: Sources/RawCoding/Formats/JSON/JSONReader.swift
after: is too large for a Double", at: start)
line: guard value != 0 || !literal.isNonzero else {
becomes: guard true else {
tests: NumberRangeTests

name: an XML real too small for a Double reads as zero
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListParser+Scalars.swift
after:
line: guard value != 0 || !isNonzero else { throw malformed(NumberParsing.underflows(shown(content)), at: offset) }
becomes: guard true else { throw malformed(NumberParsing.underflows(shown(content)), at: offset) }
tests: NumberRangeTests

name: the XML writer writes U+0000
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListWriter.swift
after: special: { byte in
line: case 0: wroteNUL = true
becomes: case 0: append("\u{0}")
tests: XMLPropertyListTests

name: binary property lists read only bplist00
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListSpec.swift
after: static func hasReadableHeader(
line: bytes.count >= 8 && bytes.starts(with: readablePrefix)
becomes: bytes.count >= 8 && bytes.starts(with: Array("bplist00".utf8))
tests: CoreFoundationRulesTests

name: JSON5 nesting limit removed
file: Sources/RawCoding/Formats/JSON/JSON5Parser.swift
after: mutating func enterContainer()
line: guard depth <= maximumDepth else
becomes: guard true else
tests: JSON5ReaderTests

name: a JSON sink taken from the thread keeps the last document's bytes
file: Sources/RawCoding/Formats/JSON/JSONSink.swift
after: private func recycle()
line: output.removeAll()
becomes: _ = output.count
tests: SinkEncodingTests

name: an XML sink taken from the thread keeps the last document's bytes
file: Sources/RawCoding/Formats/PropertyList/XMLPropertyListSink.swift
after: func finishData() -> Data?
line: output.bytes.removeAll()
becomes: _ = output.bytes.count
tests: SinkEncodingTests

name: a binary sink taken from the thread keeps the last document's shared strings
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListSink.swift
after: private func recycle()
line: strings.removeAll()
becomes: _ = strings.count
tests: SinkEncodingTests

name: a binary sink taken from the thread keeps the last document's shared numbers
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListSink.swift
after: private func recycle()
line: numbers.removeAll()
becomes: _ = objects.count
tests: SinkEncodingTests

name: a binary sink's dictionary keys follow the model's order
file: Sources/RawCoding/Formats/PropertyList/BinaryPropertyListSink.swift
after: func endDictionary() -> Bool
line: for position in order { references.append(string(keys[closed.firstKey + position])) }
becomes: for position in 0..<count { references.append(string(keys[closed.firstKey + position])) }
tests: SinkEncodingTests

name: the scan takes an object whose keys convert from snake case to one name
file: Sources/RawCoding/Formats/JSON/JSONScan.swift
after: mutating func convertKeysFromSnakeCase() -> Bool
line: if tokens[token].length > 1, keyHashesMeet(token) { return false }
becomes: if tokens[token].length > 1, keyHashesMeet(token), false { return false }
tests: SnakeCaseScanTests

name: the byte-wise snake-case conversion decides for characters Foundation's treats otherwise
file: Sources/RawCoding/Value/Coding/KeyConversion.swift
after: } else if byte &- UInt8(ascii: "0") < 10 {
line: return nil
becomes: output[count] = byte
tests: SnakeCaseScanTests

name: the scan converts the keys of a [String: Value] dictionary from snake case
file: Sources/RawCoding/Value/Coding/ScanDecodingNode.swift
after: JSONDecoder converts the keys of types, not the keys of [String: Value] data.
line: node.keepsKeys = true
becomes: node.keepsKeys = false
tests: FoundationCoderPortTests|SnakeCaseScanTests

name: property-list sink options are reused for another depth
file: Sources/RawCoding/Codecs/PropertyListCodec.swift
after: var sinkOptions: SinkOptions {
line: last.encoder.maximumDepth == depth
becomes: last.encoder.maximumDepth >= 0
tests: SinkEncodingTests

name: a sink's string with a character to escape is copied unescaped
file: Sources/RawCoding/Formats/Shared/ByteOutput.swift
after: Copies first and checks the copy in place
line: guard !EscapeRuns.mayNeedEscape(UnsafeBufferPointer(copy), specials: specials, readsPastEnd: true) else {
becomes: guard true else {
tests: SinkEncodingTests|FoundationCoderPortTests

name: sink options made for one JSON codec are reused for another with other dates
file: Sources/RawCoding/Codecs/JSONCodec.swift
after: func matches(_ codec: JSONCodec) -> Bool
line: depth == codec.limits.effectiveDepth && keys == codec.keys && data == codec.data && dates == codec.dates
becomes: depth == codec.limits.effectiveDepth && keys == codec.keys && data == codec.data
tests: SinkEncodingTests

name: sink options made for a snake-case JSON codec are reused for one with default keys
file: Sources/RawCoding/Codecs/JSONCodec.swift
after: func matches(_ codec: JSONCodec) -> Bool
line: depth == codec.limits.effectiveDepth && keys == codec.keys && data == codec.data && dates == codec.dates
becomes: depth == codec.limits.effectiveDepth && data == codec.data && dates == codec.dates
tests: SinkEncodingTests

name: a string with a character to escape is written unescaped
file: Sources/RawCoding/Formats/Shared/EscapeRuns.swift
after: static func mayNeedEscape
line: return found != 0
becomes: return false
tests: SinkEncodingTests|FoundationCoderPortTests

name: async store calls run on the calling task, blocking the concurrency pool
file: Sources/RawCodingStores/Store/StoreThreads.swift
after: private func enqueue(_ job: @escaping @Sendable () -> Void) {
line: condition.lock()
becomes: if Bool(true) { return job() }; condition.lock()
tests: aHeldLockLeavesThePoolFree

name: stores do not check cancellation before they write
file: Sources/RawCodingStores/Store/StoreThreads.swift
after: package static func checkCancellation()
line: guard let job = current, job.isCancelled else { return }
becomes: guard let job = current, job.isCancelled, Bool(false) else { return }
tests: anUpdateCancelledWhileWaitingForTheLockWritesNothing|adapterMeetsTheContract

name: PostgresStore does not cancel the statement of a cancelled task
file: Sources/RawCodingPostgres/PostgresConnection.swift
after: private func execute(
line: return try job.whileRunning(interrupt: request.send)
becomes: return try job.whileRunning(interrupt: {})
tests: anUpdateCancelledWhileWaitingForTheLockWritesNothing

name: SQLiteStore reads through the writer's connection
file: Sources/RawCodingSQLite/SQLiteStore.swift
after: public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
line: try readers.withConnection({ connection throws(RawCodingError) in
becomes: try connection.withLock({ connection throws(RawCodingError) in
tests: sqliteReadersReadTheLastCommitAroundAnOpenWriteTransaction

name: a connection pool opens more connections than its size
file: Sources/RawCodingStores/Store/ConnectionPool.swift
after: private func checkOut()
line: if opened < size {
becomes: if opened < size || Bool(true) {
tests: callersBeyondThePoolWaitForAConnection

name: decimal text drops the zero before the point of a number below one
file: Sources/RawCoding/Formats/Shared/DecimalText.swift
after: } else {
line: bytes.appendByte(UInt8(ascii: "0"))
becomes: bytes.appendByte(UInt8(ascii: " "))
tests: DecimalTextTests

name: decimal text writes a whole number's zeros one short
file: Sources/RawCoding/Formats/Shared/DecimalText.swift
after: if fields.exponent >= 0 {
line: for _ in 0..<fields.exponent {
becomes: for _ in 1..<max(fields.exponent, 1) {
tests: DecimalTextTests

name: decimal text ignores the sign
file: Sources/RawCoding/Formats/Shared/DecimalText.swift
after: static func append(_ decimal: Decimal, to bytes: inout some ByteOutput)
line: if fields.negative {
becomes: if fields.negative && Bool(false) {
tests: DecimalTextTests
name: a payload that does not decode natively is not tried in the snippets' forms
file: Sources/RawCodingStores/Store/StoredForm.swift
after: nativeError = error
line: switch tree {
becomes: switch Optional<StoredValue>.none ?? .null {
tests: SnippetFormTests

name: JSON text per element is not parsed in nested arrays and dictionaries
file: Sources/RawCodingStores/Store/StoredForm.swift
after: func parse(_ tree: StoredValue) -> StoredValue? {
line: guard let element = parse(element) else { return nil }
becomes: guard case .string = element, let element = parse(element) else { return nil }
tests: SnippetFormTests

name: writing in the native form sets no payload of another form aside
file: Sources/RawCodingStores/Store/KeyValueStore+WriteBack.swift
after: func setsAside(writing written: StoredForm) -> Bool {
line: settingAside || (form.map { $0 != written } ?? false)
becomes: settingAside
tests: SnippetFormTests

name: the form found is not kept by formFound
file: Sources/RawCodingStores/Store/StoredForm.swift
after: func form(over found: StoredForm?) -> StoredForm {
line: case .formFound: found ?? .native
becomes: case .formFound: .native
tests: SnippetFormTests

name: a property-list form writes a URL as a string, which PropertyListDecoder cannot read
file: Sources/RawCodingStores/Store/StoredForm.swift
after: var codec = PropertyListCodec(format: format)
line: codec.writesFoundationURLs = true
becomes: codec.writesFoundationURLs = false
tests: SnippetFormTests

name: an observer's own write is reported back to it
file: Sources/RawCodingStores/Store/StoreChangeBroadcaster.swift
after: let token = ObjectIdentifier(registration.token)
line: guard !running.contains(token) else { continue }
becomes: _ = running
tests: StoredKeyTests|DefaultsPortTests

name: a property write made inside its own write is overwritten by the outer one
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: // An observer wrote this property again inside the write
line: guard writes == write else { return }
becomes: _ = write
tests: StoredKeyTests

name: an observation's handler is released inside the broadcaster's lock
file: Sources/RawCodingStores/Store/StoreChangeBroadcaster.swift
after: let removed = self?.registrations.withLock { registrations -> Registration? in
line: return registrations.remove(at: index)
becomes: registrations.remove(at: index); return nil
tests: StoredKeyTests

name: a closure default is made once, when the property is, not again on reset
file: Sources/RawCodingStores/Property/StoredProperty.swift
after: _ key: String, store: any KeyValueStore, writing: StoredWriting, makeDefault: @escaping @Sendable () -> Value
line: self.makeDefault = makeDefault
becomes: self.makeDefault = { [value = makeDefault()] in value }
tests: StoredKeyTests|DefaultsPortTests

name: keys on two instances of one suite differ
file: Sources/RawCodingStores/Property/StoredKey.swift
after: if let defaults = store as? UserDefaultsStore {
line: identity = defaults.storageName
becomes: identity = ObjectIdentifier(defaults)
tests: StoredKeyTests|DefaultsPortTests
LIST
)

# Prints "file<TAB>line number<TAB>name<TAB>tests" for mutation number $1 after applying it in
# the clone, or fails with the reason.
apply() {
    MUTATIONS="$mutations" python3 - "$clone" "$1" <<'PY'
import os, sys
clone, wanted = sys.argv[1], int(sys.argv[2])
blocks = [b for b in os.environ["MUTATIONS"].split("\n\n") if b.strip()]
fields = {}
for line in blocks[wanted].splitlines():
    key, _, value = line.partition(":")
    fields[key] = value[1:] if value.startswith(" ") else value
path = os.path.join(clone, fields["file"])
lines = open(path, encoding="utf-8").read().split("\n")
start = 0
if fields["after"]:
    anchors = [i for i, text in enumerate(lines) if fields["after"] in text]
    if len(anchors) != 1:
        sys.exit(f"{fields['file']}: anchor {fields['after']!r} found {len(anchors)} times, not once")
    start = anchors[0]
hits = [i for i in range(start, len(lines)) if fields["line"] in lines[i]]
if not hits or (not fields["after"] and len(hits) > 1):
    sys.exit(f"{fields['file']}: {fields['line']!r} found {len(hits)} times after the anchor")
number = hits[0]
lines[number] = lines[number].replace(fields["line"], fields["becomes"], 1)
open(path, "w", encoding="utf-8").write("\n".join(lines))
print(f"{fields['file']}\t{number + 1}\t{fields['name']}\t{fields['tests']}")
PY
}

count=$(MUTATIONS="$mutations" python3 -c 'import os; print(len([b for b in os.environ["MUTATIONS"].split("\n\n") if b.strip()]))')
filters=$(printf '%s\n' "$mutations" | sed -n 's/^tests: //p' | tr '\n' '|' | sed 's/|$//')

echo "Cloning $(git -C "$repo" rev-parse --short HEAD) into $clone (uncommitted changes are not included)"
git clone --quiet "$repo" "$clone"
cd "$clone"
echo "Building and running the named tests unmutated..."
if ! swift build --build-tests > "$work/build.log" 2>&1; then
    tail -30 "$work/build.log"; echo "The unmutated clone does not build."; exit 2
fi
if ! swift test --skip-build --filter "$filters" > "$work/baseline.log" 2>&1; then
    grep -E "✘|error" "$work/baseline.log" | head -30; echo "The unmutated tests fail; fix them first."; exit 2
fi

results=()
missed=0
broken=0
for ((index = 0; index < count; index++)); do
    git checkout --quiet -- .
    if ! description=$(apply "$index" 2> "$work/apply.log"); then
        results+=("LIST IS STALE	$(cat "$work/apply.log")")
        broken=$((broken + 1))
        continue
    fi
    IFS=$'\t' read -r file line name tests <<< "$description"
    if [[ ! "$name" =~ $only ]]; then continue; fi
    started=$(date +%s)
    if ! swift build --build-tests > "$work/build.log" 2>&1; then
        results+=("DOES NOT BUILD	$name ($file:$line)")
        broken=$((broken + 1))
        continue
    fi
    status=0
    timeout 300 swift test --skip-build --filter "$tests" > "$work/test.log" 2>&1 || status=$?
    if ((status == 0)); then
        verdict="NOT CAUGHT"
        missed=$((missed + 1))
    elif ((status == 124)); then
        verdict="caught"
        name="$name: the tests hung and were stopped after 300 s"
    else
        verdict="caught"
    fi
    results+=("$verdict	$name ($file:$line; $((($(date +%s) - started))) s)")
    printf '%-11s %s\n' "$verdict" "$name"
done
git checkout --quiet -- .

echo
echo "result       mutation (where; build and test time)"
for row in "${results[@]}"; do
    IFS=$'\t' read -r verdict rest <<< "$row"
    printf '%-12s %s\n' "$verdict" "$rest"
done
echo
echo "${#results[@]} mutations: $((${#results[@]} - missed - broken)) caught, $missed not caught, $broken not applied"
if ((broken > 0)); then exit 2; fi
if ((missed > 0)); then exit 1; fi
