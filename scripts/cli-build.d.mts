export declare const root: string;
export declare const cliEntry: string;
export declare function cliBuildIsFresh(): boolean;
export declare function buildCli(): Promise<void>;
