import Foundation
import ServiceKit

/// One Stack Exchange question.
public struct StackExchangeQuestion: Hashable, Sendable {
    /// `question_id`.
    public var id: Int
    /// The title, HTML entities decoded (`&#39;` reads `'`).
    public var title: String
    /// The score.
    public var score: Int
    /// The tags.
    public var tags: [String]
    /// The asker's display name, HTML entities decoded; present even for deleted users.
    public var ownerDisplayName: String
    /// The question's page.
    public var link: URL
    /// When it was asked.
    public var creationDate: Date
    /// Whether it has an accepted or upvoted answer.
    public var isAnswered: Bool
    /// How often it was viewed, when sent.
    public var viewCount: Int?
    /// How many answers it has, when sent.
    public var answerCount: Int?

    /// A question.
    public init(
        id: Int, title: String, score: Int, tags: [String], ownerDisplayName: String, link: URL,
        creationDate: Date, isAnswered: Bool, viewCount: Int? = nil, answerCount: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.score = score
        self.tags = tags
        self.ownerDisplayName = ownerDisplayName
        self.link = link
        self.creationDate = creationDate
        self.isAnswered = isAnswered
        self.viewCount = viewCount
        self.answerCount = answerCount
    }

    /// Reads an item; `question_id`, `title`, `score`, `owner.display_name`, `link`, `creation_date` (epoch
    /// seconds) and `is_answered` are required, the rest optional.
    init(json item: JSON) throws {
        self.init(
            id: try item["question_id"].required.int,
            title: HTMLEntities.decode(try item["title"].required.string),
            score: try item["score"].required.int,
            tags: item["tags"].array?.compactMap(\.string) ?? [],
            ownerDisplayName: HTMLEntities.decode(try item["owner"]["display_name"].required.string),
            link: try item["link"].required.url,
            creationDate: try item["creation_date"].required.date(.secondsSince1970),
            isAnswered: try item["is_answered"].required.bool,
            viewCount: item["view_count"].int,
            answerCount: item["answer_count"].int)
    }
}
