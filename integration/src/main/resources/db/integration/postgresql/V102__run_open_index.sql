-- The runs a pod has not finished (queued, running), found without reading every run: diagnostics count them and
-- pruning leaves them out of a flow's count. Partial: it holds only the few open runs, never the finished history.
CREATE INDEX integration_run_open ON integration_run (flow) WHERE status IN ('queued', 'running');
