-- The language a person chose to read (SetLanguage): "en", "sv", "fi" or
-- "nb". No row: none chosen, and Accept-Language decides.
CREATE TABLE account_languages (
    account_id  BIGINT PRIMARY KEY,
    language    TEXT NOT NULL
);
