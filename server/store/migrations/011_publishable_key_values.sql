-- Publishable keys are public by design: every page that embeds the widget carries one. From now on
-- such a key keeps its whole value beside its hash, so the dashboard can list it and fill the embed
-- snippet with it. Keys made before stay NULL (only their hash was ever stored), and a secret key
-- never has a value: the CHECK refuses one.
ALTER TABLE api_keys ADD COLUMN key_value TEXT CHECK (key_value IS NULL OR type = 'publishable');
