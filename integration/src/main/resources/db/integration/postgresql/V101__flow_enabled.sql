-- A flow can be switched off: no scheduled runs and no trigger-key runs while off; its document and history stay.
ALTER TABLE integration_flow ADD COLUMN enabled BOOLEAN NOT NULL DEFAULT TRUE;
