import GeoPhotoCore
import GeoPhotoStore

/// The index schema, one migration per released change. Never edit a shipped migration:
/// append a new one.
enum Schema {
  static let migrator = Migrator([
    .init(
      "photos",
      sql: """
        CREATE TABLE photos (
          id INTEGER PRIMARY KEY,
          source TEXT NOT NULL,
          source_id TEXT NOT NULL,
          path TEXT,
          latitude REAL,
          longitude REAL,
          altitude REAL,
          taken_at TEXT,
          title TEXT NOT NULL,
          camera_make TEXT,
          camera_model TEXT,
          width INTEGER,
          height INTEGER,
          orientation INTEGER,
          file_size INTEGER,
          modified_ns INTEGER,
          content_hash TEXT,
          problem TEXT,
          first_seen TEXT NOT NULL,
          updated TEXT NOT NULL,
          UNIQUE (source, source_id),
          CHECK ((latitude IS NULL) = (longitude IS NULL)),
          CHECK (latitude IS NULL OR (latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180))
        );
        CREATE INDEX photos_content_hash ON photos (content_hash) WHERE content_hash IS NOT NULL;
        CREATE TABLE sync_roots (
          path TEXT PRIMARY KEY,
          last_synced TEXT NOT NULL
        );
        CREATE TABLE index_state (
          key TEXT PRIMARY KEY,
          value INTEGER NOT NULL
        );
        INSERT INTO index_state (key, value) VALUES ('generation', 1);
        -- A random identity: a spatial index file left over from another database that
        -- happens to share a generation number is never mistaken for this one's.
        INSERT INTO index_state (key, value) VALUES ('identity', random());
        """),
    .init(
      "remote photos",
      sql: """
        ALTER TABLE photos ADD COLUMN url TEXT;
        ALTER TABLE photos ADD COLUMN thumbnail_url TEXT;
        ALTER TABLE photos ADD COLUMN attribution TEXT;
        ALTER TABLE photos ADD COLUMN license TEXT;
        CREATE TABLE fetched_areas (
          provider TEXT NOT NULL,
          latitude REAL NOT NULL,
          longitude REAL NOT NULL,
          radius REAL NOT NULL,
          fetched_at INTEGER NOT NULL,
          photos INTEGER NOT NULL
        );
        CREATE INDEX fetched_areas_by_provider ON fetched_areas (provider, fetched_at);
        """),
    .init(
      "estimated locations",
      sql: """
        ALTER TABLE photos ADD COLUMN location_estimated INTEGER NOT NULL DEFAULT 0;
        """),
    .init(
      "place names",
      sql: """
        ALTER TABLE photos ADD COLUMN place_name TEXT;
        ALTER TABLE photos ADD COLUMN place_admin1 TEXT;
        ALTER TABLE photos ADD COLUMN place_admin2 TEXT;
        ALTER TABLE photos ADD COLUMN place_cc TEXT;
        ALTER TABLE photos ADD COLUMN place_distance REAL;
        -- The gazetteer the place came from; NULL until placed.
        ALTER TABLE photos ADD COLUMN place_gazetteer INTEGER;
        """),
    .init(
      "capture times in UTC",
      sql: """
        -- The capture time as an instant, for time filters; NULL for floating times (no offset).
        ALTER TABLE photos ADD COLUMN taken_utc INTEGER;
        UPDATE photos SET taken_utc = CAST(strftime('%s', taken_at) AS INTEGER)
        WHERE taken_at GLOB '*Z' OR taken_at GLOB '*[+-][0-9][0-9]:[0-9][0-9]';
        CREATE INDEX photos_taken_utc ON photos (taken_utc) WHERE taken_utc IS NOT NULL;
        """),
    .init(
      "positions generation",
      sql: """
        -- Advances only when positions change (not when places are named), so the kd-tree file,
        -- stamped with it, outlives a renaming.
        INSERT INTO index_state (key, value) SELECT 'positions', value FROM index_state WHERE key = 'generation';
        """),
    .init(
      "videos",
      sql: """
        ALTER TABLE photos ADD COLUMN media_type TEXT NOT NULL DEFAULT 'photo';
        -- A video's length in seconds.
        ALTER TABLE photos ADD COLUMN duration REAL;
        """),
    .init(
      "one photo per shot",
      sql: """
        -- The primary file's Live Photo identifier, for pairing a still with its video.
        ALTER TABLE photos ADD COLUMN content_id TEXT;
        -- A photo's other files: a RAW beside the JPEG, a Live Photo's video, sidecars.
        CREATE TABLE photo_members (
          photo_id INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
          path TEXT NOT NULL UNIQUE,
          role TEXT NOT NULL,
          file_size INTEGER NOT NULL,
          modified_ns INTEGER NOT NULL,
          content_hash TEXT NOT NULL,
          content_id TEXT
        );
        CREATE INDEX photo_members_by_photo ON photo_members (photo_id);
        """),
    .init(
      "local capture times",
      sql: """
        -- The capture time's wall clock in seconds (as if UTC), for local periods and floating times.
        ALTER TABLE photos ADD COLUMN taken_local INTEGER;
        UPDATE photos SET taken_local = CAST(strftime('%s', substr(taken_at, 1, 19)) AS INTEGER)
        WHERE taken_at IS NOT NULL;
        """),
    .init(
      "descriptions and keywords",
      sql: """
        ALTER TABLE photos ADD COLUMN description TEXT;
        -- One keyword per line.
        ALTER TABLE photos ADD COLUMN keywords TEXT;
        -- Local files were read without them: the next sync reads every file again.
        UPDATE photos SET modified_ns = -1 WHERE source = 'local';
        """),
    .init(
      "searched text",
      sql: """
        -- What text filters search (SearchText): the photo's fields, and its place's.
        ALTER TABLE photos ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
        ALTER TABLE photos ADD COLUMN place_text TEXT NOT NULL DEFAULT '';
        """,
      fill: fillSearchText),
    .init(
      "text index",
      sql: """
        -- The words of both (SearchText keeps them lower case, one space apart, an unspaced
        -- script's characters one by one), for phrase and prefix queries; the ascii tokenizer
        -- splits on exactly those spaces and keeps every other character.
        CREATE VIRTUAL TABLE photo_text USING fts5 (
          search_text, place_text, content = 'photos', content_rowid = 'id', tokenize = 'ascii'
        );
        -- Kept with the photos table in the same statements, so in the same transactions.
        CREATE TRIGGER photo_text_insert AFTER INSERT ON photos BEGIN
          INSERT INTO photo_text (rowid, search_text, place_text) VALUES (new.id, new.search_text, new.place_text);
        END;
        CREATE TRIGGER photo_text_delete AFTER DELETE ON photos BEGIN
          INSERT INTO photo_text (photo_text, rowid, search_text, place_text)
          VALUES ('delete', old.id, old.search_text, old.place_text);
        END;
        CREATE TRIGGER photo_text_update AFTER UPDATE OF search_text, place_text ON photos
        WHEN old.search_text IS NOT new.search_text OR old.place_text IS NOT new.place_text BEGIN
          INSERT INTO photo_text (photo_text, rowid, search_text, place_text)
          VALUES ('delete', old.id, old.search_text, old.place_text);
          INSERT INTO photo_text (rowid, search_text, place_text) VALUES (new.id, new.search_text, new.place_text);
        END;
        INSERT INTO photo_text (photo_text) VALUES ('rebuild');
        """),
    .init(
      "place details",
      sql: """
        -- What the gazetteer knows of a photo's place (PlaceName); filled when places are named
        -- again with the gazetteer that has them.
        ALTER TABLE photos ADD COLUMN place_population INTEGER;
        ALTER TABLE photos ADD COLUMN place_time_zone TEXT;
        ALTER TABLE photos ADD COLUMN place_geoname_id INTEGER;
        ALTER TABLE photos ADD COLUMN place_is_country INTEGER;
        """),
    .init(
      "capture time zones",
      sql: """
        -- Where a capture time's offset comes from (camera, gps, place, sea; NULL when floating),
        -- the zone a local time was read in, and a skipped or doubled local time (gap, fold).
        ALTER TABLE photos ADD COLUMN offset_source TEXT;
        ALTER TABLE photos ADD COLUMN time_zone TEXT;
        ALTER TABLE photos ADD COLUMN offset_ambiguity TEXT;
        UPDATE photos SET offset_source = 'camera' WHERE taken_utc IS NOT NULL;
        -- Floating times are read in their place's zone when places are named again.
        UPDATE photos SET place_gazetteer = NULL WHERE taken_at IS NOT NULL AND taken_utc IS NULL;
        """),
    .init(
      "place stamps",
      sql: """
        -- Photos marked `stamp` (place_gazetteer) hold what `gazetteer` names them: naming them
        -- again with it changed nothing (PlaceRenaming), so their rows were left as they were.
        CREATE TABLE place_stamps (
          gazetteer INTEGER NOT NULL,
          stamp INTEGER NOT NULL,
          PRIMARY KEY (gazetteer, stamp)
        ) WITHOUT ROWID;
        """),
    .init(
      "located changes",
      sql: """
        -- The positions generation at which a photo was last added, moved, given another capture
        -- time or source (-1 until its write transaction ends; NULL for photos not changed since
        -- changes are kept): readers merge the photos changed since their spatial index was built.
        ALTER TABLE photos ADD COLUMN moved INTEGER;
        CREATE INDEX photos_moved ON photos (moved) WHERE moved IS NOT NULL;
        -- Located photos deleted, with the positions generation of their deletion (-1 likewise).
        CREATE TABLE removed_photos (id INTEGER NOT NULL, generation INTEGER NOT NULL);
        CREATE INDEX removed_photos_by_generation ON removed_photos (generation);
        -- Changes are known from this positions generation on (older deletions are let go).
        INSERT INTO index_state (key, value) SELECT 'changes_since', value FROM index_state WHERE key = 'positions';
        CREATE TRIGGER photos_moved_insert AFTER INSERT ON photos WHEN new.latitude IS NOT NULL BEGIN
          UPDATE photos SET moved = -1 WHERE id = new.id;
        END;
        CREATE TRIGGER photos_moved_update AFTER UPDATE OF latitude, longitude, source, taken_utc, taken_local ON photos
        WHEN (old.latitude IS NOT NULL OR new.latitude IS NOT NULL) AND (old.latitude IS NOT new.latitude
          OR old.longitude IS NOT new.longitude OR old.source IS NOT new.source OR old.taken_utc IS NOT new.taken_utc
          OR old.taken_local IS NOT new.taken_local) BEGIN
          UPDATE photos SET moved = -1 WHERE id = new.id;
        END;
        CREATE TRIGGER photos_removed AFTER DELETE ON photos WHEN old.latitude IS NOT NULL BEGIN
          INSERT INTO removed_photos (id, generation) VALUES (old.id, -1);
        END;
        """),
    .init(
      "located changes stamped at once",
      sql: """
        -- A write marks its rows with the positions generation it commits as (the current one
        -- plus one: SQLite has one writer at a time, and `write` advances it when it marked any),
        -- instead of marking them -1 and writing every marked row again at the end.
        DROP TRIGGER photos_moved_insert;
        DROP TRIGGER photos_moved_update;
        DROP TRIGGER photos_removed;
        UPDATE photos SET moved = (SELECT value FROM index_state WHERE key = 'positions') WHERE moved = -1;
        UPDATE removed_photos SET generation = (SELECT value FROM index_state WHERE key = 'positions')
        WHERE generation = -1;
        CREATE TRIGGER photos_moved_insert AFTER INSERT ON photos WHEN new.latitude IS NOT NULL BEGIN
          UPDATE photos SET moved = (SELECT value + 1 FROM index_state WHERE key = 'positions') WHERE id = new.id;
        END;
        CREATE TRIGGER photos_moved_update AFTER UPDATE OF latitude, longitude, source, taken_utc, taken_local ON photos
        WHEN (old.latitude IS NOT NULL OR new.latitude IS NOT NULL) AND (old.latitude IS NOT new.latitude
          OR old.longitude IS NOT new.longitude OR old.source IS NOT new.source OR old.taken_utc IS NOT new.taken_utc
          OR old.taken_local IS NOT new.taken_local) BEGIN
          UPDATE photos SET moved = (SELECT value + 1 FROM index_state WHERE key = 'positions') WHERE id = new.id;
        END;
        CREATE TRIGGER photos_removed AFTER DELETE ON photos WHEN old.latitude IS NOT NULL BEGIN
          INSERT INTO removed_photos (id, generation)
          VALUES (old.id, (SELECT value + 1 FROM index_state WHERE key = 'positions'));
        END;
        """),
    .init(
      "located rows stamped as inserted",
      sql: """
        -- A row inserted with its mark already (the store's upserts write it with the row) is
        -- not written a second time; other inserts are marked as before.
        DROP TRIGGER photos_moved_insert;
        CREATE TRIGGER photos_moved_insert AFTER INSERT ON photos
        WHEN new.latitude IS NOT NULL AND new.moved IS NOT (SELECT value + 1 FROM index_state WHERE key = 'positions')
        BEGIN
          UPDATE photos SET moved = (SELECT value + 1 FROM index_state WHERE key = 'positions') WHERE id = new.id;
        END;
        """),
    .init(
      "one path per photo",
      sql: """
        -- A local photo's path is its source id; the copy in its own column is gone.
        ALTER TABLE photos DROP COLUMN path;
        """),
    .init(
      "estimate sources",
      sql: """
        -- Where an estimated position came from (EstimateSource's text): a track, the photos
        -- around it, or a hand.
        ALTER TABLE photos ADD COLUMN location_source TEXT;
        """),
    .init(
      "positions placed by hand",
      sql: """
        -- The position a photo's file recorded, put aside while one placed by hand is shown
        -- (HandPlacement); NULL otherwise.
        ALTER TABLE photos ADD COLUMN file_latitude REAL;
        ALTER TABLE photos ADD COLUMN file_longitude REAL;
        ALTER TABLE photos ADD COLUMN file_altitude REAL;
        """),
    .init(
      "share links",
      sql: """
        -- Links that share one trip or filter (ShareLinks): the token kept as its SHA-256 only.
        CREATE TABLE shares (
          id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, trip TEXT,
          filter TEXT NOT NULL, created INTEGER NOT NULL, expires INTEGER, revoked INTEGER
        );
        """),
  ])

  /// Computes both text columns of every photo already indexed (the triggers index them).
  @Sendable static func fillSearchText(_ database: Database) throws {
    var texts: [(Int64, String, String)] = []
    let selection = PhotoSelection(PhotoColumn.beforePlaceDetails)
    try database.forEachRow("SELECT \(selection.list) FROM photos") { row in
      let photo = Photo(row: selection.row(row))
      texts.append((photo.id, SearchText.photoText(of: photo), SearchText.placeText(of: photo.place)))
    }
    for (id, text, place) in texts {
      try database.execute(
        "UPDATE photos SET search_text = ?, place_text = ? WHERE id = ?", [.text(text), .text(place), .integer(id)])
    }
  }
}
