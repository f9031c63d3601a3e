import Foundation
import RawCoding

// The `api` group: responses shaped like those of public web APIs, decoded with the options
// their Swift clients set, beside `JSONDecoder` configured the same way. The payloads are made
// here (no fixture files): a GitHub-like issue list, a Mastodon-like timeline and a
// Spotify-like catalogue page.

/// A GitHub-like issue: snake-case names mapped by coding keys, ISO 8601 dates without
/// fractions, optional fields, nested users and labels.
struct APIIssue: Codable, Equatable {
    enum State: String, Codable { case open, closed }
    struct User: Codable, Equatable {
        var login: String
        var id: Int
        var avatarURL: String
        var siteAdmin: Bool
        enum CodingKeys: String, CodingKey {
            case login, id
            case avatarURL = "avatar_url"
            case siteAdmin = "site_admin"
        }
    }
    struct Label: Codable, Equatable {
        var id: Int
        var name: String
        var color: String
    }
    var id: Int
    var number: Int
    var title: String
    var body: String?
    var state: State
    var htmlURL: String
    var user: User
    var labels: [Label]
    var comments: Int
    var locked: Bool
    var createdAt: Date
    var updatedAt: Date
    var closedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, number, title, body, state, user, labels, comments, locked
        case htmlURL = "html_url"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case closedAt = "closed_at"
    }
}

/// A Mastodon-like status: property names converted from snake case by the decoder's key
/// strategy, dates with milliseconds.
struct APIStatus: Codable, Equatable {
    enum Visibility: String, Codable { case `public`, unlisted, `private`, direct }
    struct Account: Codable, Equatable {
        var id: String
        var username: String
        var displayName: String
        var followersCount: Int
        var createdAt: Date
    }
    struct Attachment: Codable, Equatable {
        var id: String
        var type: String
        var url: String
        var previewUrl: String
    }
    struct Tag: Codable, Equatable {
        var name: String
        var url: String
    }
    var id: String
    var createdAt: Date
    var content: String
    var account: Account
    var reblogsCount: Int
    var favouritesCount: Int
    var sensitive: Bool
    var spoilerText: String
    var visibility: Visibility
    var mediaAttachments: [Attachment]
    var tags: [Tag]
    var inReplyToId: String?
}

/// A Spotify-like page of albums with their tracks: coding keys, default options, nesting.
struct APIAlbumPage: Codable, Equatable {
    struct Artist: Codable, Equatable {
        var id: String
        var name: String
        var uri: String
    }
    struct Image: Codable, Equatable {
        var url: String
        var height: Int
        var width: Int
    }
    struct Track: Codable, Equatable {
        var id: String
        var name: String
        var durationMilliseconds: Int
        var trackNumber: Int
        var explicit: Bool
        var artists: [Artist]
        enum CodingKeys: String, CodingKey {
            case id, name, explicit, artists
            case durationMilliseconds = "duration_ms"
            case trackNumber = "track_number"
        }
    }
    struct Tracks: Codable, Equatable {
        var items: [Track]
        var total: Int
    }
    struct Album: Codable, Equatable {
        var id: String
        var name: String
        var albumType: String
        var releaseDate: String
        var totalTracks: Int
        var popularity: Double
        var artists: [Artist]
        var images: [Image]
        var tracks: Tracks
        enum CodingKeys: String, CodingKey {
            case id, name, popularity, artists, images, tracks
            case albumType = "album_type"
            case releaseDate = "release_date"
            case totalTracks = "total_tracks"
        }
    }
    var href: String
    var items: [Album]
    var limit: Int
    var offset: Int
    var total: Int
}

/// The three payloads, their Foundation decoders and our codecs, configured alike.
enum APIPayloads {
    static let start = Date(timeIntervalSinceReferenceDate: 780_000_000)

    static func issues(_ count: Int) -> [APIIssue] {
        (0..<count).map { index in
            APIIssue(
                id: 1_000_000 + index, number: 4_000 + index, title: "Crash when decoding payload \(index)",
                body: index % 3 == 0 ? nil : "Steps to reproduce:\n1. Open the app\n2. Tap \"sync\" (\(index))",
                state: index % 4 == 0 ? .closed : .open,
                htmlURL: "https://example.com/org/repo/issues/\(4_000 + index)",
                user: .init(
                    login: "user\(index % 7)", id: 500 + index % 7,
                    avatarURL: "https://avatars.example.com/u/\(500 + index % 7)?v=4", siteAdmin: false),
                labels: (0..<(index % 3)).map {
                    .init(id: 90 + $0, name: ["bug", "crash", "p1"][$0], color: "d73a4a")
                },
                comments: index % 9, locked: false, createdAt: start.addingTimeInterval(Double(index * 3_600)),
                updatedAt: start.addingTimeInterval(Double(index * 3_600 + 120)),
                closedAt: index % 4 == 0 ? start.addingTimeInterval(Double(index * 3_600 + 86_400)) : nil)
        }
    }

    static func timeline(_ count: Int) -> [APIStatus] {
        (0..<count).map { index in
            let created = start.addingTimeInterval(Double(index) * 61.125)
            return APIStatus(
                id: "11\(index)4532", createdAt: created,
                content: "<p>Status \(index): trying the new release &amp; its #swift support</p>",
                account: .init(
                    id: "10\(index % 5)", username: "poster\(index % 5)", displayName: "Poster \(index % 5)",
                    followersCount: 1_000 + index, createdAt: start.addingTimeInterval(-86_400.5)),
                reblogsCount: index % 11, favouritesCount: index % 23, sensitive: index % 10 == 0,
                spoilerText: index % 10 == 0 ? "spoiler" : "", visibility: index % 6 == 0 ? .unlisted : .public,
                mediaAttachments: index % 4 == 0
                    ? [
                        .init(
                            id: "9\(index)", type: "image", url: "https://files.example.social/\(index).png",
                            previewUrl: "https://files.example.social/\(index)_small.png")
                    ] : [],
                tags: [.init(name: "swift", url: "https://example.social/tags/swift")],
                inReplyToId: index % 5 == 0 ? "11\(index - 1)4532" : nil)
        }
    }

    static func albums(_ count: Int) -> APIAlbumPage {
        let artist = APIAlbumPage.Artist(id: "0OdUWJ0sBjDrqHygGUXeCF", name: "Band", uri: "spotify:artist:0OdUWJ0s")
        return APIAlbumPage(
            href: "https://api.example.com/v1/albums?offset=0&limit=\(count)",
            items: (0..<count).map { index in
                APIAlbumPage.Album(
                    id: "4aawyAB9vmqN3uQ7FjRGT\(index)", name: "Album \(index)", albumType: "album",
                    releaseDate: "20\(10 + index % 15)-0\(1 + index % 9)-1\(index % 10)", totalTracks: 4,
                    popularity: 41.5 + Double(index), artists: [artist],
                    images: [640, 300, 64].map {
                        .init(url: "https://i.example.com/image/\(index)/\($0)", height: $0, width: $0)
                    },
                    tracks: .init(
                        items: (0..<4).map { track in
                            .init(
                                id: "2TpxZ7JUBn3uw46aR7qd6\(track)", name: "Track \(track + 1)",
                                durationMilliseconds: 180_000 + track * 7_777, trackNumber: track + 1,
                                explicit: track == 3, artists: [artist])
                        }, total: 4))
            }, limit: count, offset: 0, total: 1_000)
    }

    /// Mastodon's date form, ISO 8601 with milliseconds, as a client reads it with Foundation's
    /// format style. (TootSDK keeps `ISO8601DateFormatter`s instead; on Linux each
    /// `date(from:)` of one costs about 360,000 instructions, 60 times the format style's
    /// parse, so that closure would be nine tenths of either side's time whatever the decoder.)
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// How such a client reads Mastodon dates.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    static let fractionalDates: @Sendable (any Decoder) throws -> Date = { decoder in
        let text = try decoder.singleValueContainer().decode(String.self)
        return try fractionalStyle.parse(text)
    }

    /// And writes them.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    static let writeFractionalDates: @Sendable (Date, any Encoder) throws -> Void = { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(fractionalStyle.format(date))
    }
}

/// The rows: each decode of ours beside `JSONDecoder` configured as the client configures it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func apiRows() throws -> [SmallRow] {
    // GitHub-like: ISO 8601 dates (octokit sets a formatter of that format).
    let issues = APIPayloads.issues(30)
    let issueEncoder = JSONEncoder()
    issueEncoder.dateEncodingStrategy = .iso8601
    let issueBytes = try issueEncoder.encode(issues)
    let issueDecoder = JSONDecoder()
    issueDecoder.dateDecodingStrategy = .iso8601
    let issueCodec = JSONCodec(dates: .iso8601)

    // Mastodon-like: snake-case keys, dates with milliseconds read by a custom closure (the
    // same closure on both sides).
    let statuses = APIPayloads.timeline(20)
    let statusEncoder = JSONEncoder()
    statusEncoder.keyEncodingStrategy = .convertToSnakeCase
    statusEncoder.dateEncodingStrategy = .custom(APIPayloads.writeFractionalDates)
    let statusBytes = try statusEncoder.encode(statuses)
    let statusDecoder = JSONDecoder()
    statusDecoder.keyDecodingStrategy = .convertFromSnakeCase
    statusDecoder.dateDecodingStrategy = .custom(APIPayloads.fractionalDates)
    let statusCodec = JSONCodec(
        dates: .custom(encode: APIPayloads.writeFractionalDates, decode: APIPayloads.fractionalDates), keys: .snakeCase)

    // Spotify-like: default options.
    let page = APIPayloads.albums(20)
    let pageBytes = try JSONEncoder().encode(page)
    let pageDecoder = JSONDecoder()
    let pageCodec = JSONCodec()

    // Both sides read (and write) the same values, or the comparison means nothing.
    guard
        try issueCodec.decode([APIIssue].self, from: issueBytes)
            == issueDecoder.decode([APIIssue].self, from: issueBytes),
        try statusCodec.decode([APIStatus].self, from: statusBytes)
            == statusDecoder.decode([APIStatus].self, from: statusBytes),
        try statusDecoder.decode([APIStatus].self, from: statusCodec.encode(statuses)) == statuses,
        try pageCodec.decode(APIAlbumPage.self, from: pageBytes)
            == pageDecoder.decode(APIAlbumPage.self, from: pageBytes)
    else { fail("api: our decode and JSONDecoder's disagree") }

    return [
        SmallRow(
            id: "api-issues-decode", title: "api: GitHub-like issues, ISO 8601 dates (\(issueBytes.count) B)",
            ours: { _ = try issueCodec.decode([APIIssue].self, from: issueBytes) },
            theirs: { _ = try issueDecoder.decode([APIIssue].self, from: issueBytes) }, target: 3),
        SmallRow(
            id: "api-timeline-decode",
            title: "api: Mastodon-like timeline, snake case, custom dates (\(statusBytes.count) B)",
            ours: { _ = try statusCodec.decode([APIStatus].self, from: statusBytes) },
            theirs: { _ = try statusDecoder.decode([APIStatus].self, from: statusBytes) }, target: 2),
        SmallRow(
            id: "api-timeline-encode", title: "api: Mastodon-like timeline encode, snake case, custom dates",
            ours: { _ = try statusCodec.encode(statuses) }, theirs: { _ = try statusEncoder.encode(statuses) },
            target: 2),
        SmallRow(
            id: "api-albums-decode", title: "api: Spotify-like albums, default options (\(pageBytes.count) B)",
            ours: { _ = try pageCodec.decode(APIAlbumPage.self, from: pageBytes) },
            theirs: { _ = try pageDecoder.decode(APIAlbumPage.self, from: pageBytes) }, target: 3),
    ]
}
