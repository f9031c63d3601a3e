import Foundation

/// A small deterministic generator, so every run benchmarks the same documents.
struct DocumentGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }

    mutating func unit() -> Double { Double(next() % 1_000_000_007) / 1_000_000_007 }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
}

/// Shaped like the well-known `canada.json` (a GeoJSON country outline, about 2 MB): one
/// feature whose polygon holds 480 rings and about 56,000 coordinate pairs with six decimals.
struct Canada: Codable, Equatable {
    struct Feature: Codable, Equatable {
        var type: String
        var properties: [String: String]
        var geometry: Geometry
    }

    struct Geometry: Codable, Equatable {
        var type: String
        var coordinates: [[[Double]]]
    }

    var type: String
    var features: [Feature]

    static func make() -> Canada {
        var generator = DocumentGenerator(state: 42)
        var rings: [[[Double]]] = []
        for ring in 0..<480 {
            let count = ring == 0 ? 6_000 : 100 + Int(generator.next() % 10)
            var longitude = -141 + generator.unit() * 88
            var latitude = 42 + generator.unit() * 40
            var points: [[Double]] = []
            points.reserveCapacity(count)
            for _ in 0..<count {
                longitude += (generator.unit() - 0.5) / 50
                latitude += (generator.unit() - 0.5) / 50
                // Six decimals, as the original's survey data has them (its text then has 17
                // significant digits: -65.613616999999977).
                points.append([(longitude * 1e6).rounded() / 1e6, (latitude * 1e6).rounded() / 1e6])
            }
            rings.append(points)
        }
        return Canada(
            type: "FeatureCollection",
            features: [
                Feature(
                    type: "Feature", properties: ["name": "Canada"],
                    geometry: Geometry(type: "Polygon", coordinates: rings))
            ])
    }
}

/// Shaped like the well-known `twitter.json` (a search result, about 600 KB): 100 statuses
/// with a user each, Japanese and emoji text, URLs, many optional fields and large ids.
struct Twitter: Codable, Equatable {
    struct Status: Codable, Equatable {
        var metadata: Metadata
        var created_at: String
        var id: UInt64
        var id_str: String
        var text: String
        var source: String
        var truncated: Bool
        var in_reply_to_status_id: UInt64?
        var in_reply_to_status_id_str: String?
        var in_reply_to_user_id: UInt64?
        var in_reply_to_user_id_str: String?
        var in_reply_to_screen_name: String?
        var user: User
        var retweet_count: Int
        var favorite_count: Int
        var entities: Entities
        var favorited: Bool
        var retweeted: Bool
        var lang: String
    }

    struct Metadata: Codable, Equatable {
        var result_type: String
        var iso_language_code: String
    }

    struct User: Codable, Equatable {
        var id: UInt64
        var id_str: String
        var name: String
        var screen_name: String
        var location: String
        var description: String
        var url: String?
        var entities: UserEntities
        var protected: Bool
        var followers_count: Int
        var friends_count: Int
        var listed_count: Int
        var created_at: String
        var favourites_count: Int
        var utc_offset: Int?
        var time_zone: String?
        var geo_enabled: Bool
        var verified: Bool
        var statuses_count: Int
        var lang: String
        var contributors_enabled: Bool
        var is_translator: Bool
        var is_translation_enabled: Bool
        var profile_background_color: String
        var profile_background_image_url: String
        var profile_background_image_url_https: String
        var profile_background_tile: Bool
        var profile_image_url: String
        var profile_image_url_https: String
        var profile_banner_url: String?
        var profile_link_color: String
        var profile_sidebar_border_color: String
        var profile_sidebar_fill_color: String
        var profile_text_color: String
        var profile_use_background_image: Bool
        var default_profile: Bool
        var default_profile_image: Bool
        var following: Bool
        var follow_request_sent: Bool
        var notifications: Bool
    }

    struct UserEntities: Codable, Equatable {
        var description: URLs
        var url: URLs?
    }

    struct URLs: Codable, Equatable {
        var urls: [URLEntity]
    }

    struct URLEntity: Codable, Equatable {
        var url: String
        var expanded_url: String
        var display_url: String
        var indices: [Int]
    }

    struct Entities: Codable, Equatable {
        var hashtags: [Hashtag]
        var symbols: [String]
        var urls: [URLEntity]
        var user_mentions: [Mention]
    }

    struct Hashtag: Codable, Equatable {
        var text: String
        var indices: [Int]
    }

    struct Mention: Codable, Equatable {
        var screen_name: String
        var name: String
        var id: UInt64
        var id_str: String
        var indices: [Int]
    }

    struct SearchMetadata: Codable, Equatable {
        var completed_in: Double
        var max_id: UInt64
        var max_id_str: String
        var next_results: String
        var query: String
        var refresh_url: String
        var count: Int
        var since_id: Int
        var since_id_str: String
    }

    var statuses: [Status]
    var search_metadata: SearchMetadata

    static let words = [
        "一", "前田あゆみ", "おはようございます", "今日", "は", "いい", "天気", "ですね", "😀", "🎉", "東京",
        "RT", "@aym0566x:", "しぶや", "#有村架純", "love", "the", "\"quoted\"", "new\nline", "café", "🇯🇵",
        "https://t.co/abc", "ランチ", "なう", "！", "、", "。",
    ]

    static func make() -> Twitter {
        var generator = DocumentGenerator(state: 7)
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in generator.pick(words) }.joined(separator: generator.next() % 3 == 0 ? " " : "")
        }
        func color() -> String { String(format: "%06X", Int(generator.next() % 0xFFFFFF)) }
        var statuses: [Status] = []
        for index in 0..<100 {
            let id = 505_874_924_095_815_681 - UInt64(index) * 1_234_567
            let userID = 1_186_275_104 + generator.next() % 1_000_000_000
            let screenName = "user_\(generator.next() % 100_000)"
            let link = URLEntity(
                url: "http://t.co/\(generator.next() % 1_000_000)",
                expanded_url: "http://example.com/\(screenName)/profile", display_url: "example.com/\(screenName)",
                indices: [0, 22])
            let user = User(
                id: userID, id_str: "\(userID)", name: sentence(3), screen_name: screenName, location: sentence(6),
                description: sentence(150), url: index % 2 == 0 ? link.url : nil,
                entities: UserEntities(
                    description: URLs(urls: index % 3 == 0 ? [link] : []),
                    url: index % 2 == 0 ? URLs(urls: [link]) : nil),
                protected: false, followers_count: Int(generator.next() % 10_000),
                friends_count: Int(generator.next() % 5_000),
                listed_count: Int(generator.next() % 100), created_at: "Sun Mar 23 13:21:46 +0000 2014",
                favourites_count: Int(generator.next() % 50_000), utc_offset: index % 4 == 0 ? nil : 32_400,
                time_zone: index % 4 == 0 ? nil : "Tokyo", geo_enabled: index % 5 == 0, verified: false,
                statuses_count: Int(generator.next() % 100_000), lang: "ja", contributors_enabled: false,
                is_translator: false, is_translation_enabled: false, profile_background_color: color(),
                profile_background_image_url: "http://abs.twimg.com/images/themes/theme1/bg.png",
                profile_background_image_url_https: "https://abs.twimg.com/images/themes/theme1/bg.png",
                profile_background_tile: false,
                profile_image_url:
                    "http://pbs.twimg.com/profile_images/\(generator.next() % 1_000_000_000)/normal.jpeg",
                profile_image_url_https:
                    "https://pbs.twimg.com/profile_images/\(generator.next() % 1_000_000_000)/normal.jpeg",
                profile_banner_url: index % 3 == 0 ? nil : "https://pbs.twimg.com/profile_banners/\(userID)/1395582233",
                profile_link_color: color(), profile_sidebar_border_color: color(), profile_sidebar_fill_color: color(),
                profile_text_color: color(), profile_use_background_image: true, default_profile: index % 2 == 0,
                default_profile_image: false, following: false, follow_request_sent: false, notifications: false)
            let replyID: UInt64? = index % 3 == 0 ? id - 99 : nil
            let mentions = (0..<Int(generator.next() % 3)).map { _ in
                Mention(
                    screen_name: "aym0566x", name: sentence(1), id: 866_260_188, id_str: "866260188", indices: [0, 9])
            }
            statuses.append(
                Status(
                    metadata: Metadata(result_type: "recent", iso_language_code: "ja"),
                    created_at: "Sun Aug 31 00:29:15 +0000 2014", id: id, id_str: "\(id)", text: sentence(200),
                    source: "<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>",
                    truncated: false, in_reply_to_status_id: replyID,
                    in_reply_to_status_id_str: replyID.map { "\($0)" },
                    in_reply_to_user_id: replyID.map { _ in userID },
                    in_reply_to_user_id_str: replyID.map { _ in "\(userID)" },
                    in_reply_to_screen_name: replyID.map { _ in screenName }, user: user,
                    retweet_count: Int(generator.next() % 100), favorite_count: Int(generator.next() % 100),
                    entities: Entities(
                        hashtags: index % 4 == 0 ? [Hashtag(text: "有村架純", indices: [10, 15])] : [], symbols: [],
                        urls: index % 5 == 0 ? [link] : [], user_mentions: mentions),
                    favorited: false, retweeted: false, lang: "ja"))
        }
        return Twitter(
            statuses: statuses,
            search_metadata: SearchMetadata(
                completed_in: 0.087, max_id: 505_874_924_095_815_681, max_id_str: "505874924095815681",
                next_results: "?max_id=505874847260352512&q=%E4%B8%80&count=100&include_entities=1", query: "%E4%B8%80",
                refresh_url: "?since_id=505874924095815681&q=%E4%B8%80&include_entities=1", count: 100, since_id: 0,
                since_id_str: "0"))
    }
}

/// JSON as producers write it: `json` with every number that has a fraction or an exponent
/// written with 17 significant digits (`%.17g`, as C, GIS tools and the original `canada.json`
/// write doubles), so that `0.1` becomes `0.10000000000000001`. Strings are left as they are.
func producerWritten(_ json: Data) -> Data {
    let bytes = [UInt8](json)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 2)
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
            // Copy the string through its closing quote, escapes included.
            output.append(byte)
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") {
                    output.append(bytes[index])
                    index += 1
                }
                output.append(bytes[index])
                index += 1
            }
            if index < bytes.count { output.append(bytes[index]) }
            index += 1
        } else if byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
            var end = index
            while end < bytes.count, "+-.eE0123456789".utf8.contains(bytes[end]) { end += 1 }
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let value = Double(text) {
                output.append(contentsOf: String(format: "%.17g", value).utf8)
            } else {
                output.append(contentsOf: bytes[index..<end])
            }
            index = end
        } else {
            output.append(byte)
            index += 1
        }
    }
    return Data(output)
}
