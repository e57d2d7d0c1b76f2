-- Twin of ../0010_reminder_leases.sql: reminders are claimed with a lease before being sent.
ALTER TABLE reminders ADD COLUMN claimed_by TEXT;
ALTER TABLE reminders ADD COLUMN lease_until TEXT;
