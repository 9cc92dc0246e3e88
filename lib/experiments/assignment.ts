// The service's experiment assignment is the SDK's (sdk/src/experiments.ts): one implementation,
// which receipts are recomputed with offline. Nothing here may differ from it.
export {
  ASSIGNMENT_BUCKETS,
  armOfBucket,
  assignArm,
  assignmentBucket,
  checkReceiptAssignment,
  isValidSplit,
  subjectDigestOf,
  type Assignment,
  type AssignmentArm,
  type AssignmentDefinition,
  type ExperimentCheck,
  type DocumentWithExperiment,
  type ReceiptExperiment,
} from '../../sdk/src/experiments';
