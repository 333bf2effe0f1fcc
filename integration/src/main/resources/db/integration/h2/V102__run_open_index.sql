-- The runs a pod has not finished (queued, running), found without reading every run: diagnostics count them and
-- pruning leaves them out of a flow's count.
CREATE INDEX integration_run_open ON integration_run (status, flow);
