-- PostgreSQL form of migration 011_publishable_key_values.sql: the whole value of a publishable key
-- made from now on, for the dashboard to list and to put in the embed snippet. Older keys stay NULL;
-- a secret key never has one.
ALTER TABLE api_keys ADD COLUMN key_value TEXT CHECK (key_value IS NULL OR type = 'publishable');
