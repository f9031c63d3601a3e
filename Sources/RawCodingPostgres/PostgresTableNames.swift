import RawCodingStores

/// The SQL of a store's tables, with their names quoted; made once, since a statement is
/// prepared once per connection by its text.
struct PostgresTableNames: Sendable {
    let table: String
    /// The notification channel of the table's writes (a name of at most 63 bytes, whatever
    /// the table's).
    let channel: String
    let lockSchema: String
    let createValues: String
    let createSetAside: String
    let createNotify: String
    let createTrigger: String
    let lockKey: String
    let selectValue: String
    let selectForUpdate: String
    let selectKeys: String
    let upsertJSON: String
    let upsertBytes: String
    let deleteValue: String
    let insertSetAsideJSON: String
    let insertSetAsideBytes: String
    let selectSetAside: String
    let deleteSetAside: String

    init(table: String) {
        self.table = table
        // FNV-1a of the name: the channel's, the notify function's and the key locks' own number.
        let hash = table.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let suffix = String(hash, radix: 16)
        channel = "raw_coding_\(suffix)"
        let values = StoreTable.quoted(table)
        let setAside = StoreTable.quoted(table + "_set_aside")
        let notify = StoreTable.quoted("raw_coding_notify_\(suffix)")
        let key = #""key" text NOT NULL, "format" text NOT NULL"#
        lockSchema = "SELECT pg_advisory_xact_lock(\(Int64(bitPattern: hash ^ 1)))"
        createValues = #"""
            CREATE TABLE IF NOT EXISTS \#(values) (\#(key), "value" json, "data" bytea, PRIMARY KEY ("key", "format"))
            """#
        createSetAside = #"""
            CREATE TABLE IF NOT EXISTS \#(setAside) ("id" text PRIMARY KEY, \#(key), "milliseconds" bigint NOT NULL, \#
            "value" json, "data" bytea)
            """#
        // Each write notifies `<writer's server process>:k:<key>`, or `:*` for a key too long for
        // a notification (8000 bytes at most): observers then read every key again.
        createNotify = #"""
            CREATE OR REPLACE FUNCTION \#(notify)() RETURNS trigger LANGUAGE plpgsql AS $body$
            DECLARE changed text := CASE WHEN TG_OP = 'DELETE' THEN OLD."key" ELSE NEW."key" END;
            BEGIN
                PERFORM pg_notify('\#(channel)', pg_backend_pid()::text
                    || CASE WHEN octet_length(changed) <= 7000 THEN ':k:' || changed ELSE ':*' END);
                RETURN NULL;
            END $body$
            """#
        let regclass = values.replacingOccurrences(of: "'", with: "''")
        createTrigger = #"""
            DO $do$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'raw_coding_notify'
                    AND tgrelid = '\#(regclass)'::regclass) THEN
                    CREATE TRIGGER raw_coding_notify AFTER INSERT OR UPDATE OR DELETE ON \#(values)
                        FOR EACH ROW EXECUTE FUNCTION \#(notify)();
                END IF;
            END $do$
            """#
        lockKey = "SELECT pg_advisory_xact_lock(hashtextextended($1, \(Int64(bitPattern: hash))))"
        selectValue = #"SELECT "value", "data" FROM \#(values) WHERE "key" = $1 AND "format" = $2"#
        selectForUpdate = selectValue + " FOR UPDATE"
        selectKeys = #"SELECT "key" FROM \#(values) WHERE "format" = $1"#
        upsertJSON = #"""
            INSERT INTO \#(values) ("key", "format", "value") VALUES ($1, $2, $3) \#
            ON CONFLICT ("key", "format") DO UPDATE SET "value" = excluded."value", "data" = NULL
            """#
        upsertBytes = #"""
            INSERT INTO \#(values) ("key", "format", "data") VALUES ($1, $2, $3) \#
            ON CONFLICT ("key", "format") DO UPDATE SET "data" = excluded."data", "value" = NULL
            """#
        deleteValue = #"DELETE FROM \#(values) WHERE "key" = $1 AND "format" = $2"#
        insertSetAsideJSON =
            #"INSERT INTO \#(setAside) ("id", "key", "format", "milliseconds", "value") VALUES ($1, $2, $3, $4, $5)"#
        insertSetAsideBytes =
            #"INSERT INTO \#(setAside) ("id", "key", "format", "milliseconds", "data") VALUES ($1, $2, $3, $4, $5)"#
        selectSetAside = #"""
            SELECT "id", "key", "milliseconds", "value", "data" FROM \#(setAside) WHERE "format" = $1 \#
            ORDER BY "milliseconds", "id"
            """#
        deleteSetAside = #"DELETE FROM \#(setAside) WHERE "id" = $1 AND "format" = $2"#
    }
}
