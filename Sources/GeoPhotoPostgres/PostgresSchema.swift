import GeoPhotoCore
import GeoPhotoStore

/// The PostgreSQL schema, one migration per released change, applied in order and recorded in
/// `geophoto_migrations`. Never edit a shipped migration: append a new one.
enum PostgresSchema {
  /// One change of the schema: its SQL, and work SQL cannot do (values computed in Swift for
  /// the rows already there), run after it in the same transaction.
  struct Migration: Sendable {
    let name: String
    let sql: String
    var fill: (@Sendable (PostgresConnection) throws -> Void)?

    init(_ name: String, _ sql: String, fill: (@Sendable (PostgresConnection) throws -> Void)? = nil) {
      self.name = name
      self.sql = sql
      self.fill = fill
    }
  }

  static let migrations: [Migration] = [
    Migration(
      "photos",
      """
      CREATE TABLE photos (
        id BIGSERIAL PRIMARY KEY,
        source TEXT NOT NULL,
        source_id TEXT NOT NULL,
        path TEXT,
        latitude DOUBLE PRECISION,
        longitude DOUBLE PRECISION,
        geog geography(Point, 4326),
        taken_at TEXT,
        title TEXT NOT NULL,
        url TEXT,
        thumbnail_url TEXT,
        attribution TEXT,
        updated TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (source, source_id),
        CHECK ((latitude IS NULL) = (longitude IS NULL))
      );
      CREATE INDEX photos_geog ON photos USING gist (geog);
      CREATE TABLE index_state (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
      INSERT INTO index_state VALUES ('generation', 1);
      """
    ),
    Migration(
      "photo details",
      """
      ALTER TABLE photos ADD COLUMN altitude DOUBLE PRECISION, ADD COLUMN camera_make TEXT, ADD COLUMN camera_model TEXT,
        ADD COLUMN width INT, ADD COLUMN height INT, ADD COLUMN orientation INT, ADD COLUMN license TEXT,
        ADD COLUMN location_estimated BOOLEAN NOT NULL DEFAULT false, ADD COLUMN place_name TEXT,
        ADD COLUMN place_admin1 TEXT, ADD COLUMN place_admin2 TEXT, ADD COLUMN place_cc TEXT,
        ADD COLUMN place_distance DOUBLE PRECISION;
      """
    ),
    Migration(
      "sync and fetch",
      """
      ALTER TABLE photos ADD COLUMN file_size BIGINT, ADD COLUMN modified_ns BIGINT, ADD COLUMN content_hash TEXT,
        ADD COLUMN problem TEXT, ADD COLUMN first_seen TIMESTAMPTZ NOT NULL DEFAULT now(),
        ADD COLUMN place_gazetteer BIGINT,
        ADD CONSTRAINT photos_position_range
          CHECK (latitude IS NULL OR (latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180));
      -- Paths under a folder are a byte-order range whatever the database's locale: the key's
      -- own index serves those ranges.
      ALTER TABLE photos ALTER COLUMN source_id TYPE TEXT COLLATE "C";
      CREATE TABLE sync_roots (path TEXT COLLATE "C" PRIMARY KEY, last_synced TIMESTAMPTZ NOT NULL);
      CREATE TABLE fetched_areas (
        provider TEXT NOT NULL,
        latitude DOUBLE PRECISION NOT NULL,
        longitude DOUBLE PRECISION NOT NULL,
        radius DOUBLE PRECISION NOT NULL,
        fetched_at BIGINT NOT NULL,
        photos INT NOT NULL
      );
      CREATE INDEX fetched_areas_by_provider ON fetched_areas (provider, fetched_at);
      """
    ),
    Migration(
      "positions as a generated geography",
      """
      -- The geography follows latitude and longitude by itself: writes set only those.
      ALTER TABLE photos DROP COLUMN geog;
      ALTER TABLE photos ADD COLUMN geog geography(Point, 4326) GENERATED ALWAYS AS (
        CASE WHEN latitude IS NULL THEN NULL
          ELSE ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography END) STORED;
      CREATE INDEX photos_geog ON photos USING gist (geog);
      """
    ),
    Migration(
      "capture times in UTC",
      """
      -- The capture time as an instant, for time filters; NULL for floating times (no offset).
      ALTER TABLE photos ADD COLUMN taken_utc BIGINT;
      UPDATE photos SET taken_utc = extract(epoch FROM taken_at::timestamptz)::bigint
      WHERE taken_at ~ '(Z|[+-][0-9]{2}:[0-9]{2})$';
      CREATE INDEX photos_taken_utc ON photos (taken_utc) WHERE taken_utc IS NOT NULL;
      """
    ),
    Migration(
      "videos",
      """
      ALTER TABLE photos ADD COLUMN media_type TEXT NOT NULL DEFAULT 'photo';
      -- A video's length in seconds.
      ALTER TABLE photos ADD COLUMN duration DOUBLE PRECISION;
      """
    ),
    Migration(
      "one photo per shot",
      """
      -- The primary file's Live Photo identifier, for pairing a still with its video.
      ALTER TABLE photos ADD COLUMN content_id TEXT;
      -- A photo's other files: a RAW beside the JPEG, a Live Photo's video, sidecars.
      CREATE TABLE photo_members (
        photo_id BIGINT NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
        path TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL,
        file_size BIGINT NOT NULL,
        modified_ns BIGINT NOT NULL,
        content_hash TEXT NOT NULL,
        content_id TEXT
      );
      CREATE INDEX photo_members_by_photo ON photo_members (photo_id);
      """
    ),
    Migration(
      "local capture times",
      """
      -- The capture time's wall clock in seconds (as if UTC), for local periods and floating times.
      ALTER TABLE photos ADD COLUMN taken_local BIGINT;
      UPDATE photos SET taken_local = extract(epoch FROM substr(taken_at, 1, 19)::timestamp)::bigint
      WHERE taken_at IS NOT NULL;
      CREATE INDEX photos_taken_local ON photos (taken_local) WHERE taken_local IS NOT NULL;
      """
    ),
    Migration(
      "descriptions and keywords",
      """
      ALTER TABLE photos ADD COLUMN description TEXT;
      -- One keyword per line.
      ALTER TABLE photos ADD COLUMN keywords TEXT;
      -- Local files were read without them: the next sync reads every file again.
      UPDATE photos SET modified_ns = -1 WHERE source = 'local';
      """
    ),
    Migration(
      "text search",
      """
      -- What text filters search (SearchText): the photo's fields, and its place's.
      ALTER TABLE photos ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
      ALTER TABLE photos ADD COLUMN place_text TEXT NOT NULL DEFAULT '';
      -- Trigrams of both, for the LIKE of each searched word (PostgresSQL.textCondition).
      CREATE INDEX photos_text ON photos USING gin ((search_text || chr(10) || place_text) public.gin_trgm_ops);
      """,
      fill: fillSearchText
    ),
    Migration(
      "place details",
      """
      -- What the gazetteer knows of a photo's place (PlaceName); filled when places are named
      -- again with the gazetteer that has them.
      ALTER TABLE photos ADD COLUMN place_population BIGINT;
      ALTER TABLE photos ADD COLUMN place_time_zone TEXT;
      ALTER TABLE photos ADD COLUMN place_geoname_id BIGINT;
      ALTER TABLE photos ADD COLUMN place_is_country BOOLEAN;
      """
    ),
    Migration(
      "capture time zones",
      """
      -- Where a capture time's offset comes from (camera, gps, place, sea; NULL when floating),
      -- the zone a local time was read in, and a skipped or doubled local time (gap, fold).
      ALTER TABLE photos ADD COLUMN offset_source TEXT;
      ALTER TABLE photos ADD COLUMN time_zone TEXT;
      ALTER TABLE photos ADD COLUMN offset_ambiguity TEXT;
      UPDATE photos SET offset_source = 'camera' WHERE taken_utc IS NOT NULL;
      -- Floating times are read in their place's zone when places are named again.
      UPDATE photos SET place_gazetteer = NULL WHERE taken_at IS NOT NULL AND taken_utc IS NULL;
      """
    ),
    Migration(
      "place stamps",
      """
      -- Photos marked `stamp` (place_gazetteer) hold what `gazetteer` names them: naming them
      -- again with it changed nothing (PlaceRenaming), so their rows were left as they were.
      CREATE TABLE place_stamps (
        gazetteer BIGINT NOT NULL,
        stamp BIGINT NOT NULL,
        PRIMARY KEY (gazetteer, stamp)
      );
      """
    ),
    Migration(
      "located changes",
      """
      -- Advances when a located photo is added, moved, given another capture time or source, or
      -- removed (not when places are named): what a server's spatial index is stamped with.
      INSERT INTO index_state SELECT 'positions', value FROM index_state WHERE key = 'generation';
      -- A random identity: a spatial index kept for another database is never taken for this one's.
      INSERT INTO index_state VALUES ('identity', (random() * 9.2e18 - 4.6e18)::bigint);
      -- The positions generation at which a photo was last added, moved, given another capture
      -- time or source (-1 until its write transaction ends; NULL for photos not changed since
      -- changes are kept): servers merge the photos changed since their spatial index was built.
      ALTER TABLE photos ADD COLUMN moved BIGINT;
      CREATE INDEX photos_moved ON photos (moved) WHERE moved IS NOT NULL;
      -- Located photos deleted, with the positions generation of their deletion (-1 likewise).
      CREATE TABLE removed_photos (id BIGINT NOT NULL, generation BIGINT NOT NULL);
      CREATE INDEX removed_photos_by_generation ON removed_photos (generation);
      -- Changes are known from this positions generation on (older deletions are let go).
      INSERT INTO index_state SELECT 'changes_since', value FROM index_state WHERE key = 'positions';
      CREATE FUNCTION geophoto_note_moved() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          IF OLD.latitude IS NOT NULL THEN
            INSERT INTO removed_photos (id, generation) VALUES (OLD.id, -1);
          END IF;
          RETURN OLD;
        ELSIF TG_OP = 'INSERT' THEN
          IF NEW.latitude IS NOT NULL THEN NEW.moved := -1; END IF;
        ELSIF (OLD.latitude IS NOT NULL OR NEW.latitude IS NOT NULL) AND (
          OLD.latitude IS DISTINCT FROM NEW.latitude OR OLD.longitude IS DISTINCT FROM NEW.longitude
          OR OLD.source IS DISTINCT FROM NEW.source OR OLD.taken_utc IS DISTINCT FROM NEW.taken_utc
          OR OLD.taken_local IS DISTINCT FROM NEW.taken_local) THEN
          NEW.moved := -1;
        END IF;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER photos_moved BEFORE INSERT OR UPDATE ON photos
        FOR EACH ROW EXECUTE FUNCTION geophoto_note_moved();
      CREATE TRIGGER photos_removed AFTER DELETE ON photos
        FOR EACH ROW EXECUTE FUNCTION geophoto_note_moved();
      """
    ),
    Migration(
      "located changes stamped at once",
      """
      -- A write marks its rows with the positions generation it commits as: the first row it
      -- marks advances the generation (taking its row's lock until the commit, so writers that
      -- move photos commit their generations in order) and keeps it for the transaction;
      -- instead of marking them -1 and writing every marked row again at the end.
      UPDATE photos SET moved = (SELECT value FROM index_state WHERE key = 'positions') WHERE moved = -1;
      UPDATE removed_photos SET generation = (SELECT value FROM index_state WHERE key = 'positions')
      WHERE generation = -1;
      CREATE FUNCTION geophoto_positions_generation() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        g bigint := nullif(current_setting('geophoto.positions', true), '')::bigint;
      BEGIN
        IF g IS NULL THEN
          UPDATE index_state SET value = value + 1 WHERE key = 'positions' RETURNING value INTO g;
          PERFORM set_config('geophoto.positions', g::text, true);
        END IF;
        RETURN g;
      END
      $$;
      CREATE OR REPLACE FUNCTION geophoto_note_moved() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          IF OLD.latitude IS NOT NULL THEN
            INSERT INTO removed_photos (id, generation) VALUES (OLD.id, geophoto_positions_generation());
          END IF;
          RETURN OLD;
        ELSIF TG_OP = 'INSERT' THEN
          IF NEW.latitude IS NOT NULL THEN NEW.moved := geophoto_positions_generation(); END IF;
        ELSIF (OLD.latitude IS NOT NULL OR NEW.latitude IS NOT NULL) AND (
          OLD.latitude IS DISTINCT FROM NEW.latitude OR OLD.longitude IS DISTINCT FROM NEW.longitude
          OR OLD.source IS DISTINCT FROM NEW.source OR OLD.taken_utc IS DISTINCT FROM NEW.taken_utc
          OR OLD.taken_local IS DISTINCT FROM NEW.taken_local) THEN
          NEW.moved := geophoto_positions_generation();
        END IF;
        RETURN NEW;
      END
      $$;
      """
    ),
    Migration(
      "one path per photo",
      """
      -- A local photo's path is its source id; the copy in its own column is gone.
      ALTER TABLE photos DROP COLUMN path;
      """
    ),
    .init(
      "estimate sources",
      """
      -- Where an estimated position came from (EstimateSource's text): a track, the photos
      -- around it, or a hand.
      ALTER TABLE photos ADD COLUMN location_source TEXT;
      """
    ),
    .init(
      "positions placed by hand",
      """
      -- The position a photo's file recorded, put aside while one placed by hand is shown
      -- (HandPlacement); NULL otherwise.
      ALTER TABLE photos ADD COLUMN file_latitude float8, ADD COLUMN file_longitude float8,
        ADD COLUMN file_altitude float8;
      """
    ),
    .init(
      "share links",
      """
      -- Links that share one trip or filter (ShareLinks): the token kept as its SHA-256 only.
      CREATE TABLE shares (
        id text PRIMARY KEY, name text NOT NULL, token_hash text NOT NULL UNIQUE, trip text,
        filter text NOT NULL, created bigint NOT NULL, expires bigint, revoked bigint
      );
      """
    ),
  ]

  /// Computes both text columns of every photo already indexed, a page at a time.
  static func fillSearchText(_ connection: PostgresConnection) throws {
    var after: Int64 = 0
    let selection = PhotoSelection(PhotoColumn.beforePlaceDetails)
    while true {
      let rows = try connection.execute(
        "SELECT \(selection.list) FROM photos WHERE id > $1::bigint ORDER BY id LIMIT 1000", [.integer(after)])
      guard !rows.isEmpty else { return }
      var tuples: [String] = []
      var parameters: [StoreValue] = []
      for row in rows {
        let photo = Photo(row: selection.row(row))
        after = photo.id
        let n = parameters.count
        tuples.append("($\(n + 1)::bigint, $\(n + 2), $\(n + 3))")
        parameters += [
          .integer(photo.id), .text(SearchText.photoText(of: photo)), .text(SearchText.placeText(of: photo.place)),
        ]
      }
      try connection.execute(
        """
        UPDATE photos AS p SET search_text = v.text, place_text = v.place
        FROM (VALUES \(tuples.joined(separator: ","))) AS v(id, text, place) WHERE p.id = v.id
        """, parameters)
    }
  }

  /// The schema version the database is at: 0 before geophoto's first migration.
  static func schemaVersion(_ connection: PostgresConnection) throws(PostgresError) -> Int {
    // Looked up in the schema geophoto's tables are created in (the first of the search path),
    // not wherever the search path would find a table of that name.
    let table = "SELECT to_regclass(quote_ident(current_schema()) || '.geophoto_migrations')"
    guard try connection.execute(table).first?.text(at: 0) != nil else { return 0 }
    return Int(
      try connection.execute("SELECT coalesce(max(version), 0) FROM geophoto_migrations").first?.int64(at: 0) ?? 0)
  }

  /// Whether the server is a hot standby (a streaming replica, read-only while it recovers).
  static func isStandby(_ connection: PostgresConnection) throws -> Bool {
    try connection.execute("SELECT pg_is_in_recovery()").first?.bool(at: 0) == true
  }

  /// SQLSTATE `read_only_sql_transaction`: a write on a standby.
  static let readOnlyTransaction = "25006"

  /// What a command that writes is told on a standby.
  static func standbyRefusal(_ url: String) -> StoreError {
    StoreError(
      .readOnly,
      "\(redactingPassword(url)) is a read-only standby (a replica of the primary): commands that write the "
        + "index (sync, fetch, forget, migrate, places) must use the primary; serve, near and "
        + "export can read here")
  }

  /// A read-only open: the schema must be the one this geophoto writes; nothing is changed.
  static func check(_ connection: PostgresConnection) throws {
    let version = try schemaVersion(connection)
    let place = redactingPassword(connection.url)
    if version == 0 {
      throw StoreError(.missing, "no geophoto index in \(place) yet; run 'geophoto sync DIR --db …' first")
    }
    if version > migrations.count {
      throw StoreError(
        .newerSchema,
        "the database schema (version \(version)) is newer than this geophoto knows; upgrade geophoto")
    }
    if version < migrations.count {
      throw StoreError(
        .olderSchema,
        "the index in \(place) is from an older geophoto (schema \(version) of \(migrations.count)) and is opened "
          + "read-only: run a writing command (such as 'geophoto sync') once to upgrade it")
    }
  }

  /// The extensions the schema needs, with what to tell someone whose role cannot create them.
  static let requiredExtensions = [
    (
      name: "postgis", title: "PostGIS",
      hint: "install it (Debian: postgresql-15-postgis-3) and run 'CREATE EXTENSION postgis;' as a superuser"
    ),
    (
      name: "pg_trgm", title: "pg_trgm",
      hint: "run 'CREATE EXTENSION pg_trgm;' as a superuser or the database's owner (it comes with PostgreSQL)"
    ),
  ]

  /// Creates extension `name` in the public schema unless it is there.
  static func ensure(extension name: String, title: String, hint: String, _ connection: PostgresConnection)
    throws(PostgresError)
  {
    let present = "SELECT 1 FROM pg_extension WHERE extname = '\(name)'"
    do {
      if try connection.execute(present).isEmpty {
        try connection.execute("CREATE EXTENSION IF NOT EXISTS \(name) WITH SCHEMA public")
      }
    } catch {
      guard !error.isConnectionFailure else { throw error }
      // Another session (not a geophoto migrator, which holds the lock) created it meanwhile.
      let created = (try? connection.execute(present).isEmpty) == false
      if error.sqlState != "23505" || !created {
        throw PostgresError(
          sqlState: error.sqlState,
          "\(title) is not available in \(redactingPassword(connection.url)): \(hint) "
            + "(\(error.message.split(separator: "\n").first ?? ""))")
      }
    }
  }

  static func migrate(_ connection: PostgresConnection) throws(PostgresError) {
    // Up to date: nothing to write, so a read-only role or a read replica serves as well.
    if try schemaVersion(connection) == migrations.count { return }
    // One migrator at a time, whichever process gets there first.
    try connection.execute("SELECT pg_advisory_lock(7420001)")
    defer { _ = try? connection.execute("SELECT pg_advisory_unlock(7420001)") }
    for e in requiredExtensions { try ensure(extension: e.name, title: e.title, hint: e.hint, connection) }
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS geophoto_migrations (version INT PRIMARY KEY, name TEXT NOT NULL)")
    let applied = try schemaVersion(connection)
    guard applied <= migrations.count else {
      throw PostgresError(
        "the database schema (version \(applied)) is newer than this geophoto knows; upgrade geophoto")
    }
    for (offset, migration) in migrations.enumerated().dropFirst(applied) {
      do {
        try connection.transaction {
          try connection.execute(migration.sql)
          try migration.fill?(connection)
          try connection.execute(
            "INSERT INTO geophoto_migrations VALUES ($1::int, $2)",
            [.integer(Int64(offset + 1)), .text(migration.name)])
        }
      } catch let error as PostgresError {
        throw error
      } catch {
        throw PostgresError("migration '\(migration.name)' failed: \(error)")
      }
    }
  }
}
