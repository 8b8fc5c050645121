/** Types of ruleset-choice.js, for adr-check's TypeScript. */
export declare const PACKAGE_NAME: string;
export declare const PACKAGE_VERSION: string;
export declare const MODULE_SETS: string[];
export type RulesetChoice =
  | { kind: 'module-set'; name: string; from: 'default' | '--ruleset' }
  | { kind: 'file'; file: string; from: 'project' | '--ruleset' };
export declare function projectRuleset(directory: string): string | undefined;
export declare function isOwnName(name: string): boolean;
export declare function ownNameFile(name: string): string | undefined;
export declare function resolveOwnNames(): void;
export declare function missingBuild(name: string): string | undefined;
export declare function onlyExtendsModuleSet(file: string): string | undefined;
export declare function chooseRuleset(given: string | undefined, directory: string): RulesetChoice;
