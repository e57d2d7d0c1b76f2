-- Reminders are claimed before they are sent: `claimed_by` names the scheduler (host, process)
-- that took one and `lease_until` (ISO-8601, like every time here) how long it may take to send
-- and record it. A reminder whose lease ran out unsent is claimed again by any scheduler, so a
-- process that dies holding some loses none (bot/storage/campaigns.py, claim_due).
ALTER TABLE reminders ADD COLUMN claimed_by TEXT;
ALTER TABLE reminders ADD COLUMN lease_until TEXT;
